package org.quire.launcher;

import org.quire.launcher.h5.H5Command;
import org.quire.launcher.h5.VersionsCommand;
import org.quire.launcher.h5.WatchCommand;
import org.quire.launcher.run.RunCommand;
import org.quire.launcher.sion.SionCommand;
import org.quire.runtime.hazelcast.HazelcastSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code quire}: the command line of Quire. Each subcommand is one class. */
@Command(name = "quire",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Parallel I/O for HPC jobs on the JVM.",
        subcommands = {RunCommand.class, SionCommand.class, H5Command.class, WatchCommand.class, VersionsCommand.class,
                CompletionCommand.class, CommandLine.HelpCommand.class})
public final class QuireCli implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        HazelcastSettings.silenceLogging();
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for {@link #main} and tests. */
    public static CommandLine commandLine() {
        RunCommand.describeMachineForHelp();
        CommandLine commandLine = new CommandLine(new QuireCli());
        // Everything after MAIN_CLASS belongs to the application, even if it looks like an option.
        commandLine.getSubcommands().get("run").setStopAtPositional(true);
        commandLine.setParameterExceptionHandler(QuireCli::usageError);
        commandLine.setExecutionExceptionHandler(QuireCli::internalError);
        return commandLine;
    }

    /**
     * A usage error, from picocli's parser or thrown by a command: one line naming the command and
     * what is wrong, one line pointing at its help, status 2 (the full usage would bury the line).
     */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        return CommandRun.usageError(e.getCommandLine().getCommandSpec(), String.valueOf(e.getMessage()));
    }

    /**
     * An exception a command did not turn into its own error line is a bug in Quire: one line
     * naming it, not a stack trace, and status 1.
     */
    private static int internalError(Exception e, CommandLine commandLine,
                                     CommandLine.ParseResult parseResult) {
        commandLine.getErr().println((commandLine.getCommandSpec().qualifiedName() + ": internal error: " + e
                + " (please report it with the command line that caused it)").replace('\n', ' '));
        commandLine.getErr().flush();
        return CommandRun.FAILED;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: one of "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
