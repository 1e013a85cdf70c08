package org.quire.format.storage;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;

/**
 * An operation on a file's bytes failed (a full disk, an I/O error, a closed file): names the
 * file, the operation and where, with the system's error as cause. Not a format failure: the
 * file's contents may be fine; the device refused.
 */
public class StorageIOException extends IOException {

    /** For operations on the whole file (force, truncate), which have no offset. */
    public static final long NO_OFFSET = -1;

    private final Path file;
    private final String operation;
    private final long offset;
    private final String reason;

    public StorageIOException(Path file, String operation, long offset, IOException cause) {
        this(file, operation, offset, reason(cause));
        initCause(cause);
    }

    /** The system's words, or what the exception's class says when it has none. */
    private static String reason(IOException cause) {
        if (cause.getMessage() != null) {
            return cause.getMessage();
        }
        if (cause instanceof ClosedByInterruptException) {
            return "the thread was interrupted, which closed the file and dropped this "
                    + "process's locks on it (run Java with --add-exports "
                    + "java.base/sun.nio.ch=ALL-UNNAMED: docs/storage.md, \"Interrupts\")";
        }
        if (cause instanceof AsynchronousCloseException) {
            return "the file was closed by another thread during the operation";
        }
        if (cause instanceof ClosedChannelException) {
            return "the file is closed";
        }
        return cause.getClass().getSimpleName();
    }

    /**
     * A failure known only by the system's words, e.g. one another rank met (its cause is then
     * set to say which rank).
     */
    public StorageIOException(Path file, String operation, long offset, String reason) {
        super(file + ": " + operation + (offset == NO_OFFSET ? "" : " at offset " + offset)
                + " failed: " + reason);
        this.file = file;
        this.operation = operation;
        this.offset = offset;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    /** What was being done, for example "write of 4096 bytes". */
    public String operation() {
        return operation;
    }

    /** Why, in the system's words ("No space left on device"). */
    public String reason() {
        return reason;
    }

    /** Where in the file, or {@link #NO_OFFSET}. */
    public long offset() {
        return offset;
    }
}
