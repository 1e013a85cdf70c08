package org.quire.format;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Root of every failure the format module reports about a file: what is on disk is not what a
 * reader or writer of the format can accept. Subclasses name the failures a user can act on.
 */
public class FormatException extends IOException {

    private final Path file;
    private final String detail;

    public FormatException(Path file, String message) {
        super(file + ": " + message);
        this.file = file;
        this.detail = message;
    }

    /**
     * A failure about data a caller passed rather than read from a file (a record string, say):
     * {@link #file()} is null and the message is {@code message} alone.
     */
    protected FormatException(String message) {
        super(message);
        this.file = null;
        this.detail = message;
    }

    public FormatException(Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
        this.detail = message;
    }

    /** The file the failure is about, or null when it is about data passed by a caller. */
    public Path file() {
        return file;
    }

    /** The message without the file name in front. */
    public String detail() {
        return detail;
    }
}
