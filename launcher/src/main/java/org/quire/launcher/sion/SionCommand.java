package org.quire.launcher.sion;

import picocli.CommandLine.Command;

/** {@code quire sion}: tools for SIONlib containers. Each subcommand is one class. */
@Command(name = "sion",
        mixinStandardHelpOptions = true,
        description = "Inspect, convert, verify and recover SIONlib containers.",
        subcommands = {SionRecoverCommand.class})
public final class SionCommand {
}
