package org.quire.format.sion;

import java.nio.file.Path;
import org.quire.format.FormatException;

/**
 * {@link SionRecovery} will not touch a SION file: it is already closed, its recovery journal is
 * missing, or the journal found belongs to another file. Nothing was written.
 */
public class SionRecoveryRefusedException extends FormatException {

    /** Why recovery was refused. */
    public enum Reason {
        /** The file is closed (start_of_varheader is set, by its writer or an earlier recovery): open it as it is. */
        ALREADY_CLOSED,
        /** No journal beside the file: it was written with the journal off, by another writer, or deleted. */
        JOURNAL_MISSING,
        /** The journal was written for a different file or a different open of this name. */
        JOURNAL_OF_ANOTHER_FILE
    }

    private final Reason reason;

    public SionRecoveryRefusedException(Path file, Reason reason, String message) {
        super(file, message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
