package org.quire.launcher.sion;

import org.quire.format.sion.SionNotClosedException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What every {@code quire sion} subcommand shares: its exit statuses, the check that an input
 * file exists, and turning a file it cannot use into one line on stderr.
 */
final class SionToolRun {

    /** Exit status when the file was rejected (corrupt, not closed, unsupported) or could not be read or written. */
    static final int FAILED = 1;

    /** Exit status of picocli usage errors, also used for arguments that do not fit the file (an unknown task). */
    static final int USAGE = 2;

    /** Exit status of a command whose standard output was closed by its reader, as a shell reports SIGPIPE. */
    static final int BROKEN_PIPE = 128 + 13;

    /** The work of one subcommand. */
    @FunctionalInterface
    interface Work {
        int run() throws IOException;
    }

    private SionToolRun() {
    }

    /** Runs {@code work}; an I/O or format failure becomes {@code quire sion NAME: message} and status 1. */
    static int run(CommandSpec spec, Work work) {
        try {
            return work.run();
        } catch (SionNotClosedException e) {
            error(spec, e.file() + ": not closed: " + e.structure() + " " + e.field()
                    + " at offset " + e.offset() + " is 0, its writer never wrote META2; 'quire sion recover'"
                    + " may recover its data");
        } catch (StandardOutputClosed e) {
            return BROKEN_PIPE;
        } catch (IOException e) {
            error(spec, describe(e));
        }
        return FAILED;
    }

    /** The input {@code file} must be an existing regular file; otherwise a usage error names it. */
    static Path existingFile(CommandSpec spec, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    file + (Files.exists(file) ? " is not a regular file" : ": no such file"));
        }
        return file;
    }

    /** One line on the command line's error stream (System.err unless a caller redirected it). */
    private static void error(CommandSpec spec, String message) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + message);
        spec.commandLine().getErr().flush();
    }

    /** File system exceptions carry only the path as message; say what happened to it. */
    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return e.getMessage() + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return e.getMessage() + ": permission denied";
        }
        return e.getMessage();
    }

    /** Thrown when writing to standard output fails because its reader went away ({@code quire sion cat ... | head}). */
    static final class StandardOutputClosed extends IOException {
        StandardOutputClosed(IOException cause) {
            super("standard output was closed by its reader", cause);
        }
    }
}
