package org.quire.format.hdf5.cache;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * An operation failed part-way after changing the file in memory (a full disk, an I/O error, a
 * damaged block found in the middle), and its writer gave up every change since the last flush
 * ({@link MetadataCache#abandon}): on disk the file is as a writer killed at that moment leaves
 * it, the last flush published. Every later flush and change fails with this exception, and
 * closing releases the file without writing, for {@code Hdf5File.recover} ({@code quire h5
 * clear FILE}) to make it readable at that flush.
 */
public class AbandonedChangesException extends FormatException {

    /**
     * @param file the file being changed
     * @param operation what failed, a phrase ("deleting versions r1, r2")
     * @param cause its failure
     */
    public AbandonedChangesException(Path file, String operation, Throwable cause) {
        super(file, operation + " failed part-way (" + cause.getMessage() + "); its changes since "
                + "the last flush are abandoned and nothing more is written: close the file, then "
                + "quire h5 clear " + file + " (Hdf5File.recover) makes it readable at its last "
                + "flush", cause);
    }
}
