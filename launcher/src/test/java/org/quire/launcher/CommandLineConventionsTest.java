package org.quire.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The conventions every {@code quire} command keeps, checked on every command of picocli's own
 * model of the command line, so that a new command cannot escape them: {@code --help} prints its
 * usage and exits 0; a usage error is one line {@code quire CMD: what is wrong} and one line
 * {@code see quire CMD --help} on standard error, status 2, nothing on standard output.
 */
class CommandLineConventionsTest {

    private record Outcome(int exitCode, String out, String err) {
    }

    private static Outcome quire(List<String> args) {
        CommandLine commandLine = QuireCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args.toArray(String[]::new));
        return new Outcome(exitCode, out.toString(), err.toString());
    }

    /** Every command with the words that invoke it, {@code quire} itself first. */
    private static List<CommandLine> everyCommand() {
        List<CommandLine> commands = new ArrayList<>();
        collect(QuireCli.commandLine(), commands);
        return commands;
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        command.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, into));
    }

    /** The words after {@code quire} that select {@code command}. */
    private static List<String> words(CommandLine command) {
        List<String> words = new ArrayList<>(List.of(command.getCommandSpec().qualifiedName().split(" ")));
        return new ArrayList<>(words.subList(1, words.size()));
    }

    @TestFactory
    Stream<DynamicTest> helpPrintsTheUsageAndExits0() {
        return everyCommand().stream().map(command -> DynamicTest.dynamicTest(
                command.getCommandSpec().qualifiedName(), () -> {
                    List<String> args = words(command);
                    args.add("--help");
                    Outcome outcome = quire(args);
                    assertEquals(0, outcome.exitCode(), outcome.toString());
                    assertTrue(outcome.out().contains("Usage: " + command.getCommandSpec().qualifiedName()),
                            outcome.toString());
                    assertEquals("", outcome.err());
                }));
    }

    /**
     * With every required argument given, so that the unknown option is the only problem.
     * {@code quire help} is picocli's, which shows the usage whatever follows it.
     */
    @TestFactory
    Stream<DynamicTest> anUnknownOptionIsOneLineAPointerToHelpAndStatus2() {
        return everyCommand().stream().filter(command -> !command.getCommandSpec().helpCommand())
                .map(command -> DynamicTest.dynamicTest(command.getCommandSpec().qualifiedName(), () -> {
                    List<String> args = words(command);
                    args.add("--no-such-option");
                    for (CommandLine.Model.OptionSpec option : command.getCommandSpec().requiredArgs().stream()
                            .filter(CommandLine.Model.ArgSpec::isOption).map(CommandLine.Model.OptionSpec.class::cast).toList()) {
                        args.add(option.longestName() + "=1");
                    }
                    for (CommandLine.Model.PositionalParamSpec parameter : command.getCommandSpec().positionalParameters()) {
                        if (parameter.required()) {
                            args.add("x");
                        }
                    }
                    assertUsageError(command, args, "Unknown option: '--no-such-option'");
                }));
    }

    /** A command that needs an argument (a FILE, a subcommand) says which one is missing. */
    @TestFactory
    Stream<DynamicTest> aMissingArgumentIsOneLineAPointerToHelpAndStatus2() {
        return everyCommand().stream().filter(CommandLineConventionsTest::needsAnArgument)
                .map(command -> DynamicTest.dynamicTest(command.getCommandSpec().qualifiedName(), () ->
                        assertUsageError(command, words(command), "issing")));
    }

    private static boolean needsAnArgument(CommandLine command) {
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        return !command.getSubcommands().isEmpty()
                || spec.args().stream().anyMatch(CommandLine.Model.ArgSpec::required);
    }

    private static void assertUsageError(CommandLine command, List<String> args, String problem) {
        String name = command.getCommandSpec().qualifiedName();
        Outcome outcome = quire(args);
        assertEquals(CommandRun.USAGE, outcome.exitCode(), outcome.toString());
        List<String> lines = outcome.err().lines().toList();
        assertEquals(2, lines.size(), outcome.toString());
        assertTrue(lines.get(0).startsWith(name + ": ") && lines.get(0).contains(problem), outcome.toString());
        assertEquals("see " + name + " --help", lines.get(1));
        assertEquals("", outcome.out());
    }

    /** The script {@code quire completion} prints completes a command in a real bash. */
    @Test
    void theCompletionScriptCompletesCommandsInBash(@TempDir Path dir) throws Exception {
        Outcome completion = quire(List.of("completion"));
        assertEquals(0, completion.exitCode(), completion.toString());
        Path script = Files.writeString(dir.resolve("quire.bash"), completion.out());
        Process bash = new ProcessBuilder("bash", "-c", "source \"$1\"; COMP_WORDS=(quire sion d); COMP_CWORD=2;"
                + " COMP_LINE='quire sion d'; COMP_POINT=${#COMP_LINE}; _complete_quire; echo \"${COMPREPLY[*]}\"",
                "bash", script.toString()).redirectErrorStream(true).start();
        String printed = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, bash.waitFor(), printed);
        assertEquals("dump defrag", printed.strip());
    }
}
