package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.quire.format.versioned.StoredChunks;
import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code quire versions ls FILE}: one line per committed version, in commit (link) order: name,
 * parent, timestamp, the chunks and bytes of raw_data its datasets map, and how many of those its
 * parent maps too (the chunks the commit did not have to store).
 */
@Command(name = "ls",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Lists the versions of FILE: name (* marks the current one), parent, timestamp,"
                + " datasets, the chunks and bytes of raw_data the version's datasets map, and the share"
                + " of those chunks its parent maps too.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {VersionsCommand.OK, VersionsCommand.FAILED, VersionsCommand.USAGE})
public final class VersionsListCommand implements Callable<Integer> {

    private static final String[] HEADER = {"VERSION", "PARENT", "TIMESTAMP", "DATASETS", "CHUNKS",
            "BYTES", "SHARED"};

    @Mixin
    private VersionedInput input;

    @Override
    public Integer call() {
        return input.runOnVersionedFile(false, (file, out) -> {
            String current = file.currentVersion();
            List<String[]> rows = new ArrayList<>();
            rows.add(HEADER);
            for (VersionInfo version : file.versions()) {
                rows.add(row(file, version, current));
            }
            print(rows, out);
            return CommandRun.OK;
        });
    }

    private static String[] row(VersionedFile file, VersionInfo version, String current)
            throws IOException {
        List<String> datasets = file.datasetNames(version.name());
        long chunks = 0;
        long bytes = 0;
        long shared = 0;
        for (String dataset : datasets) {
            StoredChunks stored = file.storedChunks(version.name(), dataset);
            chunks += stored.slots().size();
            bytes += stored.bytes();
            if (!version.isFirst() && file.datasetNames(version.parent()).contains(dataset)) {
                for (Long slot : file.storedChunks(version.parent(), dataset).slots()) {
                    shared += stored.slots().contains(slot) ? 1 : 0;
                }
            }
        }
        return new String[] {
            (version.name().equals(current) ? "*" : "") + ValueFormat.name(version.name()),
            version.isFirst() ? "-" : ValueFormat.name(version.parent()),
            version.timestamp().toString(),
            Integer.toString(datasets.size()),
            Long.toString(chunks),
            Long.toString(bytes),
            chunks == 0 ? "-" : shared + "/" + chunks + " (" + Math.round(100.0 * shared / chunks) + "%)"};
    }

    /** Columns left-aligned, two spaces apart. */
    private static void print(List<String[]> rows, PrintWriter out) {
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + (widths[i] + 2) + "s", row[i]));
            }
            out.println(line);
        }
    }
}
