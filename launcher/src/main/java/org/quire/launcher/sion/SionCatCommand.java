package org.quire.launcher.sion;

import org.quire.format.sion.KeyValueRecord;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code quire sion cat -t RANK FILE}: one task's logical stream, raw, to standard output. */
@Command(name = "cat",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Write one task's stream (or one key's records) to standard output.",
        description = "Writes the logical stream of the task with global rank RANK (its chunks concatenated, each"
                + " to its fill level) to standard output as raw bytes, streamed through a fixed buffer. In a"
                + " key-value file the stream holds the record headers too; with --key K only the data of the task's"
                + " records with key K, concatenated in stream order ('quire sion keys' lists the keys).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:written", "1:the file was rejected (corrupt, not closed) or could not be read",
            "2:bad arguments, or no task (or more than one) has global rank RANK"})
public final class SionCatCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = {"-t", "--task"}, required = true, paramLabel = "RANK", description = "global rank of the task")
    private long globalRank;

    @Option(names = {"-k", "--key"}, paramLabel = "KEY",
            description = "key-value files: only the data of the task's records with key KEY, in stream order,"
                    + " without their headers")
    private Long key;

    @Mixin
    private SionInput input;

    @Override
    public Integer call() {
        return input.runOnOpenSet(sion -> {
            SionTask task = taskWithGlobalRank(sion);
            List<KeyValueRecord> records = key == null ? null : recordsWithKey(sion, task);
            long bytes = records == null ? task.totalBytes()
                    : records.stream().mapToLong(KeyValueRecord::length).sum();
            try (TaskStreamChannel stream = sion.openTaskStream(task.index());
                 Progress progress = Progress.onStderr(spec.qualifiedName(), bytes)) {
                TaskStreamCopy copy = new TaskStreamCopy(progress);
                StandardOutput out = new StandardOutput();
                if (records == null) {
                    copy.copy(stream, out);
                } else {
                    for (KeyValueRecord record : records) {
                        copy.copy(stream, record.dataPosition(), record.length(), out);
                    }
                }
            }
            return 0;
        });
    }

    /** The task's records with {@link #key}; a key the task does not have is a usage error naming those it has. */
    private List<KeyValueRecord> recordsWithKey(SionFile sion, SionTask task) throws IOException {
        input.requireKeyValueFile(sion, "--key needs a key-value file; ");
        List<KeyValueRecord> all = sion.keyValueRecords(task.index());
        List<KeyValueRecord> withKey = all.stream().filter(record -> record.key() == key).toList();
        if (withKey.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "task with global rank " + globalRank
                    + " of " + input.file() + " has no record with key " + key + " (its keys: "
                    + SionKeysCommand.keysOf(all) + ")");
        }
        return withKey;
    }

    private SionTask taskWithGlobalRank(SionFile sion) {
        List<SionTask> matching = sion.tasks().stream().filter(task -> task.globalRank() == globalRank).toList();
        if (matching.size() == 1) {
            return matching.get(0);
        }
        long lowest = sion.tasks().stream().mapToLong(SionTask::globalRank).min().orElseThrow();
        long highest = sion.tasks().stream().mapToLong(SionTask::globalRank).max().orElseThrow();
        String problem = matching.isEmpty()
                ? "no task has global rank " + globalRank + " in " + input.file() + " (its " + sion.taskCount()
                        + " tasks have global ranks " + lowest + ".." + highest + ")"
                : matching.size() + " tasks of " + input.file() + " have global rank " + globalRank
                        + " (a serial writer stored it more than once); 'quire sion split --task-index' extracts them";
        throw new CommandLine.ParameterException(spec.commandLine(), problem);
    }

    /**
     * File descriptor 1 as a channel (no second buffer behind System.out). A reader that went away
     * ({@code | head}) is reported as {@link CommandRun.StandardOutputClosed}, not as an error.
     */
    private static final class StandardOutput implements WritableByteChannel {
        private final FileChannel channel = new FileOutputStream(FileDescriptor.out).getChannel();

        @Override
        public int write(ByteBuffer source) throws IOException {
            try {
                return channel.write(source);
            } catch (IOException e) {
                if ("Broken pipe".equals(e.getMessage())) {
                    throw new CommandRun.StandardOutputClosed(e);
                }
                throw e;
            }
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        /** Standard output stays open for the rest of the process. */
        @Override
        public void close() {
        }
    }
}
