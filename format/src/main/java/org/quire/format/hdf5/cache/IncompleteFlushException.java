package org.quire.format.hdf5.cache;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A flush failed after it had begun rewriting metadata in place (a full disk, an I/O error): on
 * disk the file now holds neither the previous flush's state nor this one's, and only the flush
 * journal, committed before the first in-place write, can complete it. The writer therefore
 * writes no more metadata: every later flush fails with this exception, and closing releases
 * the file leaving the journal for {@code Hdf5File.recover}, which replays it.
 */
public class IncompleteFlushException extends FormatException {

    private final Path journal;

    /**
     * @param file the file being flushed
     * @param journal its committed flush journal; null for a cache without one
     * @param cause the failure of the in-place writes
     */
    public IncompleteFlushException(Path file, Path journal, Throwable cause) {
        super(file, "a flush failed while rewriting metadata in place (" + cause.getMessage()
                + "); nothing more is written: " + (journal == null
                ? "without a flush journal the file cannot be repaired"
                : "close the file, then Hdf5File.recover replays the committed flush journal "
                + journal), cause);
        this.journal = journal;
    }

    /** The journal that {@code Hdf5File.recover} replays. */
    public Path journal() {
        return journal;
    }
}
