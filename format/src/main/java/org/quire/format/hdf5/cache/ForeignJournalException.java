package org.quire.format.hdf5.cache;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A committed flush journal that does not belong to the file beside it (copied from another
 * file, or left from before the file was changed by another program): replaying it would write
 * another state's blocks over this file, so recovery refuses it and changes nothing. Remove the
 * journal when the file is known to be whole.
 */
public class ForeignJournalException extends FormatException {

    private final Path journal;

    public ForeignJournalException(Path file, Path journal, String mismatch) {
        super(file, "the committed flush journal " + journal + " does not belong to this file ("
                + mismatch + "); nothing was changed: remove the journal if the file is whole");
        this.journal = journal;
    }

    public Path journal() {
        return journal;
    }
}
