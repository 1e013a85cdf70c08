package org.quire.launcher.h5;

import picocli.CommandLine.Command;

/**
 * {@code quire versions}: tools for files of versioned datasets (versioned-hdf5's layout, written
 * by Quire's {@code org.quire.format.versioned} or by versioned-hdf5). Each subcommand is one class.
 */
@Command(name = "versions",
        mixinStandardHelpOptions = true,
        description = "List, show, diff and delete the versions of a versioned HDF5 file. A VERSION is a"
                + " name, latest (the current version), ~N (N steps back from the current version along"
                + " its parents) or @TIME (the latest version committed at or before an ISO-8601 time,"
                + " @2030-01-01T12:00:00Z; UTC when no offset is given).",
        subcommands = {VersionsListCommand.class, VersionsShowCommand.class, VersionsDiffCommand.class,
                VersionsDeleteCommand.class})
public final class VersionsCommand {

    /** The exit statuses every subcommand lists in its help. */
    static final String OK = "0:done";
    static final String FAILED = "1:not a versioned file, no such version or dataset, damaged versioned data";
    static final String USAGE = "2:bad arguments (no such file, a malformed VERSION)";
}
