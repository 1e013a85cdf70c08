package org.quire.launcher;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.quire.format.FormatException;
import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.sion.SionNotClosedException;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What every file tool ({@code quire sion ...}, {@code quire h5 ...}) shares: its exit
 * statuses, the check that the input file exists, and turning a failure into one line on the
 * command line's error stream, {@code quire h5 ls: message} (running out of heap too, naming
 * the file). An unexpected runtime exception is left to {@link QuireCli}'s handler.
 */
public final class CommandRun {

    public static final int OK = 0;
    /** The file was rejected (corrupt, not closed, unsupported) or could not be read or written. */
    public static final int FAILED = 1;
    /** Bad arguments: picocli's usage errors, a missing input file, an argument the file does not fit. */
    public static final int USAGE = 2;
    /** A command whose standard output was closed by its reader, as a shell reports SIGPIPE. */
    public static final int BROKEN_PIPE = 128 + 13;

    /** The work of one command. */
    @FunctionalInterface
    public interface Work {
        int run() throws IOException, UsageException;
    }

    private CommandRun() {
    }

    /**
     * Runs {@code work} on {@code input}, which must be an existing regular file; a failure
     * becomes one line on standard error and the status it ends the command with.
     */
    public static int run(CommandSpec spec, Path input, Work work) {
        if (!Files.isRegularFile(input)) {
            return usageError(spec, input + (Files.exists(input) ? ": not a regular file" : ": no such file"));
        }
        try {
            return work.run();
        } catch (UsageException e) {
            return usageError(spec, e.getMessage());
        } catch (StandardOutputClosed e) {
            return BROKEN_PIPE;
        } catch (IOException e) {
            error(spec, describe(e));
            return FAILED;
        } catch (OutOfMemoryError e) {
            // What was being read is unreachable now: there is room for one line.
            error(spec, input + ": out of memory reading it (" + e.getMessage()
                    + "); give the launcher more heap with QUIRE_JAVA_OPTS=-Xmx...");
            return FAILED;
        }
    }

    /**
     * A usage error of any command: one line saying what is wrong, one pointing at the command's
     * help (its full usage would bury the line).
     *
     * @return {@link #USAGE}
     */
    public static int usageError(CommandSpec spec, String message) {
        error(spec, message);
        spec.commandLine().getErr().println("see " + spec.qualifiedName() + " --help");
        spec.commandLine().getErr().flush();
        return USAGE;
    }

    /**
     * One line on the command line's error stream (System.err unless a caller redirected it),
     * its control characters and bytes that are not text escaped ({@link
     * TerminalText#escapeControls}): it may name objects of the file.
     */
    public static void error(CommandSpec spec, String message) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": "
                + TerminalText.escapeControls(message));
        spec.commandLine().getErr().flush();
    }

    private static String describe(IOException e) {
        if (e instanceof SionNotClosedException notClosed) {
            return notClosed.file() + ": not closed: " + notClosed.structure() + " "
                    + notClosed.field() + " at offset " + notClosed.offset() + " is 0, its writer"
                    + " never wrote META2; " + notClosed.recoveryHint();
        }
        if (e instanceof FileOpenForWritingException open) {
            return open.commandLineMessage(); // names the writer and the command to run
        }
        if (e instanceof FormatException) {
            return e.getMessage(); // names the file already
        }
        if (e instanceof FileSystemException system && system.getReason() != null) {
            return e.getMessage(); // names the file and, from Quire's storage, the operation
        }
        // The JDK's own carry only the path as message; say what happened to it.
        if (e instanceof NoSuchFileException) {
            return e.getMessage() + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return e.getMessage() + ": permission denied";
        }
        if (e instanceof FileSystemException system) {
            return system.getFile() + ": " + e.getClass().getSimpleName();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /**
     * Thrown when writing to standard output fails because its reader went away
     * ({@code quire sion cat ... | head}).
     */
    public static final class StandardOutputClosed extends IOException {
        public StandardOutputClosed(IOException cause) {
            super("standard output was closed by its reader", cause);
        }
    }
}
