package org.quire.launcher;

import java.nio.file.Path;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The input file of a file tool ({@code quire sion ...}, {@code quire h5 ...}), mixed into its
 * command: a subclass declares the FILE argument, described for its kind of file; this class runs
 * the tool's work on it through {@link CommandRun#run} (a missing file, a file the format rejects
 * or a failed read is one line on standard error and the status the command ends with).
 */
public abstract class InputFile {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    /** The FILE argument. */
    public abstract Path file();

    /** The command this is mixed into. */
    protected final CommandSpec spec() {
        return spec;
    }

    /** {@link CommandRun#run} on FILE. */
    public final int run(CommandRun.Work work) {
        return CommandRun.run(spec, file(), work);
    }
}
