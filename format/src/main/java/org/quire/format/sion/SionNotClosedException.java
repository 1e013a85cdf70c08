package org.quire.format.sion;

import java.nio.file.Path;
import org.quire.format.CorruptFileException;

/**
 * The file's writer never closed it: META1's {@code start_of_varheader} is still 0, so META2
 * (the fill level of every chunk) was never written and the task streams cannot be delimited
 * (reference section 3.3, item 3). SIONlib refuses such files too. A user can act on this
 * differently from other corruption: the data chunks are intact, and when Quire's recovery
 * journal lies beside the file, {@link SionRecovery} can close it; the message says which.
 */
public class SionNotClosedException extends CorruptFileException {

    private final Path journal;

    /** @param journal the recovery journal beside the file, or null when there is none */
    public SionNotClosedException(Path file, long offset, Path journal) {
        super(file, offset, "META1", "start_of_varheader",
                "the offset of META2 (non-zero once the writer closed the file)",
                "0: the file was never closed by its writer");
        this.journal = journal;
    }

    /** The recovery journal beside the file, or null when there is none. */
    public Path journal() {
        return journal;
    }

    /** What can be done about it: recovery from the journal, or nothing when there is none. */
    public String recoveryHint() {
        return journal != null
                ? "its recovery journal " + journal + " is beside it: 'quire sion recover' (SionRecovery.recover)"
                        + " may recover its data"
                : "there is no recovery journal beside it (written with the journal off, or by another writer than"
                        + " Quire's parallel writer), so it cannot be recovered";
    }

    @Override
    public String getMessage() {
        return super.getMessage() + "; " + recoveryHint();
    }
}
