package org.quire.launcher.h5;

import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.quire.format.FormatException;
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

    /**
     * Prints {@code failure}, met while working on {@code file}, as one line and returns the
     * status it ends the command with.
     */
    static int report(String command, Path file, Exception failure) {
        String message;
        int status = BAD_FILE;
        if (failure instanceof NoSuchFileException) {
            message = "no such file: " + file;
            status = USAGE;
        } else if (failure instanceof UsageException) {
            message = failure.getMessage();
            status = USAGE;
        } else if (failure instanceof FileOpenForWritingException) {
            message = failure.getMessage() + "; its writer is still running or died before"
                    + " closing it";
        } else if (failure instanceof FormatException) {
            message = failure.getMessage(); // names the file already
        } else if (failure instanceof FileSystemException system) {
            message = "cannot open " + file + ": " + (system.getReason() != null
                    ? system.getReason() : system.getClass().getSimpleName());
        } else {
            message = file + ": " + (failure.getMessage() != null ? failure.getMessage()
                    : failure.getClass().getSimpleName());
        }
        System.err.println("quire h5 " + command + ": " + message.replace('\n', ' '));
        return status;
    }
}
