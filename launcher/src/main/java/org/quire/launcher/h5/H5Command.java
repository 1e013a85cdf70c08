package org.quire.launcher.h5;

import picocli.CommandLine.Command;

/** {@code quire h5}: tools for HDF5 files. Each subcommand is one class. */
@Command(name = "h5",
        mixinStandardHelpOptions = true,
        description = "List, dump, verify and clear HDF5 files.",
        subcommands = {ListCommand.class, DumpCommand.class, VerifyCommand.class, ClearCommand.class})
public final class H5Command {
}
