package org.quire.launcher.sion;

import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskStreamChannel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code quire sion split FILE PREFIX}: one file per task holding its logical stream, named like
 * SIONlib's {@code sionsplit}: PREFIX followed by the number in (at least) 5 digits.
 */
@Command(name = "split",
        sortOptions = false,
        description = "Writes the logical stream of every task to its own file PREFIX<number>, the number being"
                + " the task's global rank in at least DIGITS digits (e.g. split data.sion out/task_ gives"
                + " out/task_00000, out/task_00001, ...). Missing directories of PREFIX are created, existing files"
                + " are overwritten. In a key-value file each stream holds the record headers too.",
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

    @Parameters(index = "0", paramLabel = "FILE", description = "the SION file (file 0 of a set)")
    private Path file;

    @Parameters(index = "1", paramLabel = "PREFIX", description = "start of every output file's path")
    private String prefix;

    @Override
    public Integer call() {
        if (digits < 1 || digits > 19) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--digits must be 1..19, got " + digits);
        }
        SionToolRun.existingFile(spec, file);
        return SionToolRun.run(spec, () -> {
            try (SionFile sion = SionFile.open(file)) {
                if (!byTaskIndex) {
                    requireDistinctGlobalRanks(sion);
                }
                long total = sion.tasks().stream().mapToLong(SionTask::totalBytes).sum();
                try (Progress progress = Progress.onStderr(spec.qualifiedName(), total)) {
                    TaskStreamCopy copy = new TaskStreamCopy(progress);
                    for (SionTask task : sion.tasks()) {
                        Path output = outputFile(byTaskIndex ? task.index() : task.globalRank());
                        if (output.getParent() != null) {
                            Files.createDirectories(output.getParent());
                        }
                        try (TaskStreamChannel stream = sion.openTaskStream(task.index());
                             FileChannel out = FileChannel.open(output, StandardOpenOption.CREATE,
                                     StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                            copy.copy(stream, out);
                        }
                    }
                }
            }
            return 0;
        });
    }

    private Path outputFile(long number) {
        return Path.of(prefix + String.format("%0" + digits + "d", number));
    }

    /** Serial writers store what their caller passed, so two tasks may share a global rank. */
    private void requireDistinctGlobalRanks(SionFile sion) {
        Map<Long, SionTask> byRank = new HashMap<>();
        for (SionTask task : sion.tasks()) {
            SionTask other = byRank.putIfAbsent(task.globalRank(), task);
            if (other != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "tasks " + other.index() + " and "
                        + task.index() + " of " + file + " both have global rank " + task.globalRank()
                        + "; name the files by task index with --task-index");
            }
        }
    }
}
