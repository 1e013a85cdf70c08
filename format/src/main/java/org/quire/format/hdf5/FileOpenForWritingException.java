package org.quire.format.hdf5;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * The superblock says a writer has the file open (or crashed while it had it open): its metadata
 * may be half-written. libhdf5 refuses such files the same way; in a superblock 3 file {@code
 * h5clear -s --increment=0} clears the flag of a file whose writer is gone. For a file Quire
 * wrote, {@link Hdf5File#recover} ({@code quire h5 clear FILE}) does that and first replays the
 * flush journal the writer may have left. In a superblock 0 or 1 file, Quire's writing guard
 * (end of file address 2^63-1) is lifted by {@link Hdf5File#recover} only: libhdf5's {@code
 * h5clear} cannot (docs/hdf5.md, "The old format").
 *
 * <p>The message is for a Java caller: the {@link #situation()} and what to call. A command
 * line tool prints {@link #commandLineMessage()} instead: the same situation and what to run.
 */
public class FileOpenForWritingException extends FormatException {

    private final String situation;
    private final String commandAdvice;

    /**
     * @param situation     what holds the file, e.g. the flags and the writer's status
     * @param advice        what a Java caller can do (names API calls)
     * @param commandAdvice what a command line user can do (names commands, never Java calls)
     */
    public FileOpenForWritingException(Path file, String situation, String advice,
                                       String commandAdvice) {
        super(file, situation + "; " + advice);
        this.situation = situation;
        this.commandAdvice = commandAdvice;
    }

    /** "file is open for writing (superblock consistency flags 0x..)". */
    static String flagsMessage(int consistencyFlags) {
        return String.format("file is open for writing (superblock consistency flags 0x%02x)",
                consistencyFlags);
    }

    /** What holds the file, without advice. */
    public String situation() {
        return situation;
    }

    /** The one line for a command line user: file, situation and the command to run. */
    public String commandLineMessage() {
        return file() + ": " + situation + "; " + commandAdvice;
    }
}
