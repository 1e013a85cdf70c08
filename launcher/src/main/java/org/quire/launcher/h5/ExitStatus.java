package org.quire.launcher.h5;

import java.nio.file.NoSuchFileException;

import org.quire.format.hdf5.FileOpenForWritingException;

/**
 * The exit statuses of the {@code quire h5} commands, and the one line each failure prints on
 * standard error: {@code quire h5 CMD: message}.
 */
final class ExitStatus {

    static final int OK = 0;
    /** The file cannot be read, is damaged, or is still open for writing. */
    static final int BAD_FILE = 1;
    /** The arguments do not fit: no such file or object, a slice outside the shape. */
    static final int USAGE = 2;

    private ExitStatus() {
    }

    /** Prints {@code failure} as one line and returns the status it ends the command with. */
    static int report(String command, Exception failure) {
        String message;
        int status;
        if (failure instanceof NoSuchFileException missing) {
            message = "no such file: " + missing.getFile();
            status = USAGE;
        } else if (failure instanceof UsageException) {
            message = failure.getMessage();
            status = USAGE;
        } else if (failure instanceof FileOpenForWritingException) {
            message = failure.getMessage() + "; its writer is still running or died before"
                    + " closing it";
            status = BAD_FILE;
        } else {
            message = failure.getMessage() != null ? failure.getMessage() : failure.toString();
            status = BAD_FILE;
        }
        System.err.println("quire h5 " + command + ": " + message.replace('\n', ' '));
        return status;
    }
}
