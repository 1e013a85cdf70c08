package org.quire.launcher.sion;

import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;

/** {@code quire sion}: tools for SIONlib containers. Each subcommand is one class. */
@Command(name = "sion",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Inspect, convert, verify and recover SIONlib containers.",
        subcommands = {SionDumpCommand.class, SionCatCommand.class, SionKeysCommand.class, SionSplitCommand.class,
            SionDefragCommand.class, SionVerifyCommand.class, SionRecoverCommand.class})
public final class SionCommand {
}
