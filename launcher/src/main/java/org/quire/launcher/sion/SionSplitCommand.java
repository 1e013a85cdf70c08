package org.quire.launcher.sion;

import org.quire.format.sion.KeyValueRecord;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code quire sion split FILE PREFIX}: one file per task holding its logical stream (or, with
 * {@code --keys}, one per task and key), named like SIONlib's {@code sionsplit}: PREFIX followed
 * by the number in (at least) 5 digits.
 */
@Command(name = "split",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Write every task's stream (or every key's records) to its own file.",
        description = "Writes the logical stream of every task to its own file PREFIX<number>, the number being"
                + " the task's global rank in at least DIGITS digits (e.g. split data.sion out/task_ gives"
                + " out/task_00000, out/task_00001, ...). Missing directories of PREFIX are created, existing files"
                + " are replaced. Every file is written aside (NAME.partial) and renamed once all are complete: a"
                + " failure leaves none of them behind. In a key-value file each stream holds the record headers too; --keys writes the"
                + " records' data per key instead.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:written", "1:the file was rejected (corrupt, not closed), or reading or writing failed",
            "2:bad arguments, or two tasks have the same global rank (use --task-index)"})
public final class SionSplitCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = {"-d", "--digits"}, paramLabel = "DIGITS", defaultValue = "5",
            description = "minimum digits of the number in the file names (default: 5, as sionsplit)")
    private int digits;

    @Option(names = "--task-index",
            description = "number the files by task index (0.. in the set's global order) instead of global rank,"
                    + " as sionsplit does without -g")
    private boolean byTaskIndex;

    @Option(names = "--keys",
            description = "key-value files: one file per task and key, PREFIX<number>_<key in 12 digits>, holding the"
                    + " data of the key's records in stream order, as sionsplit does for key-value files")
    private boolean byKey;

    @Mixin
    private SionInput input;

    @Parameters(index = "1", paramLabel = "PREFIX", description = "start of every output file's path")
    private String prefix;

    @Override
    public Integer call() {
        if (digits < 1 || digits > 19) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--digits must be 1..19, got " + digits);
        }
        return input.runOnOpenSet(sion -> {
            if (!byTaskIndex) {
                requireDistinctGlobalRanks(sion);
            }
            if (byKey) {
                input.requireKeyValueFile(sion, "--keys needs a key-value file; ");
            }
            long total = sion.tasks().stream().mapToLong(SionTask::totalBytes).sum();
            PartialOutputs outputs = new PartialOutputs();
            try (Progress progress = Progress.onStderr(spec.qualifiedName(), total)) {
                TaskStreamCopy copy = new TaskStreamCopy(progress);
                for (SionTask task : sion.tasks()) {
                    long number = byTaskIndex ? task.index() : task.globalRank();
                    String name = prefix + String.format("%0" + digits + "d", number);
                    try (TaskStreamChannel stream = sion.openTaskStream(task.index())) {
                        if (byKey) {
                            splitByKey(sion.keyValueRecords(task.index()), stream, name, copy, outputs);
                        } else {
                            try (FileChannel out = outputs.create(Path.of(name))) {
                                copy.copy(stream, out);
                            }
                        }
                    }
                }
                outputs.publish();
                // With --keys the record headers are skipped, not copied: all is done all the same.
                progress.set(total);
            } catch (IOException | RuntimeException e) {
                outputs.discard(e);
                throw e;
            }
            return 0;
        });
    }

    /**
     * One file per key, its records' data appended in stream order. Each record opens its key's
     * file anew, so a task with many keys does not hold many files open.
     */
    private static void splitByKey(List<KeyValueRecord> records, TaskStreamChannel stream, String taskName,
                                   TaskStreamCopy copy, PartialOutputs outputs) throws IOException {
        Set<Long> started = new HashSet<>();
        for (KeyValueRecord record : records) {
            Path output = Path.of(taskName + String.format("_%012d", record.key()));
            try (FileChannel out = started.add(record.key()) ? outputs.create(output) : outputs.append(output)) {
                copy.copy(stream, record.dataPosition(), record.length(), out);
            }
        }
    }

    /** Serial writers store what their caller passed, so two tasks may share a global rank. */
    private void requireDistinctGlobalRanks(SionFile sion) {
        Map<Long, SionTask> byRank = new HashMap<>();
        for (SionTask task : sion.tasks()) {
            SionTask other = byRank.putIfAbsent(task.globalRank(), task);
            if (other != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "tasks " + other.index() + " and "
                        + task.index() + " of " + input.file() + " both have global rank " + task.globalRank()
                        + "; name the files by task index with --task-index");
            }
        }
    }
}
