package org.quire.format.storage;

import java.io.IOException;
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

    public StorageIOException(Path file, String operation, long offset, IOException cause) {
        super(file + ": " + operation + (offset == NO_OFFSET ? "" : " at offset " + offset)
                + " failed: " + cause.getMessage(), cause);
        this.file = file;
        this.operation = operation;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    /** What was being done, for example "write of 4096 bytes". */
    public String operation() {
        return operation;
    }

    /** Where in the file, or {@link #NO_OFFSET}. */
    public long offset() {
        return offset;
    }
}
