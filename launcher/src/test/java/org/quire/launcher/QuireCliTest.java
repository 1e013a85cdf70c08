package org.quire.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * How {@code quire} fails: every file tool with one line on the command line's error stream
 * and status 1 or 2 ({@link CommandRun}); any other exception as one line naming it, status 1.
 */
class QuireCliTest {

    @TempDir
    Path dir;

    private record Outcome(int exitCode, String out, String err) {
    }

    private static Outcome quire(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Outcome(exitCode, out.toString(), err.toString());
    }

    /** A command with a bug. */
    @Command(name = "fail")
    static final class Failing implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("a state\nover two lines");
        }
    }

    @Test
    void anUnexpectedExceptionIsOneLineNamingTheCommandAndStatus1() {
        CommandLine commandLine = QuireCli.commandLine();
        commandLine.addSubcommand(new Failing());
        Outcome outcome = quire(commandLine, "fail");
        assertEquals(1, outcome.exitCode());
        assertEquals(List.of("quire fail: internal error: java.lang.IllegalStateException: a state"
                + " over two lines (please report it with the command line that caused it)"),
                outcome.err().lines().toList());
        assertEquals("", outcome.out());
    }

    /** A file tool whose file does not fit in the heap. */
    @Command(name = "huge")
    static final class RunningOutOfMemory implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Parameters
        Path file;

        @Override
        public Integer call() {
            return CommandRun.run(spec, file, () -> {
                throw new OutOfMemoryError("Java heap space");
            });
        }
    }

    @Test
    void runningOutOfHeapIsOneLineNamingTheFileAndStatus1() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("big.h5"), "x");
        CommandLine commandLine = QuireCli.commandLine();
        commandLine.addSubcommand(new RunningOutOfMemory());
        Outcome outcome = quire(commandLine, "huge", file.toString());
        assertEquals(1, outcome.exitCode());
        assertEquals(List.of("quire huge: " + file + ": out of memory reading it (Java heap space);"
                + " give the launcher more heap with QUIRE_JAVA_OPTS=-Xmx..."),
                outcome.err().lines().toList());
    }

    @Test
    void aMissingInputFileIsTheSameUsageErrorForEveryFileTool() {
        Path missing = dir.resolve("missing");
        for (List<String> command : List.of(List.of("h5", "ls"), List.of("h5", "dump"),
                List.of("h5", "verify"), List.of("h5", "clear"), List.of("sion", "dump"),
                List.of("sion", "verify"),
                List.of("sion", "recover"))) {
            String[] args = command.equals(List.of("h5", "dump"))
                    ? new String[] {"h5", "dump", missing.toString(), "/d"}
                    : new String[] {command.get(0), command.get(1), missing.toString()};
            Outcome outcome = quire(QuireCli.commandLine(), args);
            assertEquals(CommandRun.USAGE, outcome.exitCode(), command.toString());
            String name = "quire " + String.join(" ", command);
            assertEquals(List.of(name + ": " + missing + ": no such file", "see " + name + " --help"),
                    outcome.err().lines().toList());
        }
    }

    @Test
    void aDirectoryIsNotARegularFile() {
        Outcome outcome = quire(QuireCli.commandLine(), "sion", "dump", dir.toString());
        assertEquals(CommandRun.USAGE, outcome.exitCode());
        assertEquals(List.of("quire sion dump: " + dir + ": not a regular file", "see quire sion dump --help"),
                outcome.err().lines().toList());
    }
}
