package org.quire.format.hdf5;

/**
 * What {@link Hdf5File#recover} did to a file.
 *
 * @param consistencyFlags     the superblock's flags before (0x01 a writer, 0x05 an SWMR
 *                             writer had it open; 0 it was closed)
 * @param endOfFileBefore      the superblock's end of file address before
 * @param endOfFileAfter       after: never less than the file's size, which is kept
 * @param journalBlocksReplayed blocks of a committed flush journal written in place (0: none)
 */
public record Recovery(int consistencyFlags, long endOfFileBefore, long endOfFileAfter,
                       int journalBlocksReplayed) {

    /** Whether the file was changed at all. */
    public boolean changed() {
        return consistencyFlags != 0 || endOfFileBefore != endOfFileAfter
                || journalBlocksReplayed > 0;
    }
}
