package org.quire.format.hdf5;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * The superblock says a writer has the file open (or crashed while it had it open): its metadata
 * may be half-written. libhdf5 refuses such files the same way; {@code h5clear -s
 * --increment=0} clears the flag of a file whose writer is gone. For a file Quire wrote, {@link
 * Hdf5File#recover} does that and first replays the flush journal the writer may have left.
 */
public class FileOpenForWritingException extends FormatException {

    public FileOpenForWritingException(Path file, int consistencyFlags) {
        super(file, flagsMessage(consistencyFlags));
    }

    /** The flags' message followed by {@code advice} (what the caller can do). */
    public FileOpenForWritingException(Path file, int consistencyFlags, String advice) {
        super(file, flagsMessage(consistencyFlags) + "; " + advice);
    }

    private static String flagsMessage(int consistencyFlags) {
        return String.format("file is open for writing (superblock consistency flags 0x%02x)",
                consistencyFlags);
    }

    /** A file another writer has open, told by something other than the superblock's flags. */
    protected FileOpenForWritingException(Path file, String message) {
        super(file, message);
    }
}
