package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.quire.format.versioned.StoredChunks;
import org.quire.format.versioned.VersionInfo;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code quire versions ls FILE}: one line per committed version, in commit (link) order: name,
 * parent, timestamp, the chunks and bytes of raw_data its datasets map, and how many of those
 * another version maps too (deleting the version frees only the others).
 */
@Command(name = "ls",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Lists the versions of FILE: name (* marks the current one), parent, timestamp,"
                + " datasets, the chunks (distinct raw_data slots) and bytes the version's datasets map,"
                + " and the share of those chunks another version maps too (deleting the version frees"
                + " only the others).",
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
            Map<String, Map<String, StoredChunks>> stored = new LinkedHashMap<>();
            Map<String, Integer> mappers = new HashMap<>();   // dataset@slot -> versions mapping it
            for (VersionInfo version : file.versions()) {
                Map<String, StoredChunks> chunks = new LinkedHashMap<>();
                for (String dataset : file.datasetNames(version.name())) {
                    chunks.put(dataset, file.storedChunks(version.name(), dataset));
                    for (Long slot : chunks.get(dataset).slots()) {
                        mappers.merge(dataset + "@" + slot, 1, Integer::sum);
                    }
                }
                stored.put(version.name(), chunks);
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(HEADER);
            for (VersionInfo version : file.versions()) {
                rows.add(row(version, current, stored.get(version.name()), mappers));
            }
            print(rows, out);
            return CommandRun.OK;
        });
    }

    private static String[] row(VersionInfo version, String current, Map<String, StoredChunks> datasets,
                                Map<String, Integer> mappers) {
        long chunks = 0;
        long bytes = 0;
        long shared = 0;
        for (Map.Entry<String, StoredChunks> dataset : datasets.entrySet()) {
            chunks += dataset.getValue().slots().size();
            bytes += dataset.getValue().bytes();
            for (Long slot : dataset.getValue().slots()) {
                shared += mappers.get(dataset.getKey() + "@" + slot) > 1 ? 1 : 0;
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
