package org.quire.launcher.sion;

import org.quire.format.sion.KeyValueRecord;
import org.quire.format.sion.SionTask;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code quire sion keys FILE}: the keys of every task of a key-value file, with their records and bytes. */
@Command(name = "keys",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        header = "List the keys of every task of a key-value SION file.",
        description = "Prints one line per task and key of a key-value (inline) file, tasks in the set's order and"
                + " keys in ascending order: the task's global rank, the key, its number of records and their bytes"
                + " of data. 'quire sion cat -t RANK --key KEY FILE' writes a key's data.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:listed", "1:the file was rejected (corrupt, not closed) or could not be read",
            "2:bad arguments, or the file is not a key-value file"})
public final class SionKeysCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private SionInput input;

    @Override
    public Integer call() {
        return input.runOnOpenSet(sion -> {
            input.requireKeyValueFile(sion, "not a key-value file: ");
            PrintWriter out = spec.commandLine().getOut();
            out.println("global_rank key records bytes");
            for (SionTask task : sion.tasks()) {
                Map<Long, List<KeyValueRecord>> byKey = new TreeMap<>(sion.keyValueRecords(task.index()).stream()
                        .collect(Collectors.groupingBy(KeyValueRecord::key)));
                for (Map.Entry<Long, List<KeyValueRecord>> key : byKey.entrySet()) {
                    out.println(task.globalRank() + " " + key.getKey() + " " + key.getValue().size() + " "
                            + key.getValue().stream().mapToLong(KeyValueRecord::length).sum());
                }
            }
            out.flush();
            return CommandRun.OK;
        });
    }

    /** The distinct keys of {@code records}, ascending, comma-separated. */
    static String keysOf(List<KeyValueRecord> records) {
        return records.stream().map(KeyValueRecord::key).distinct().sorted().map(String::valueOf)
                .collect(Collectors.joining(","));
    }
}
