package org.quire.launcher.sion;

import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code quire sion cat -t RANK FILE}: one task's logical stream, raw, to standard output. */
@Command(name = "cat",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Write one task's stream to standard output.",
        description = "Writes the logical stream of the task with global rank RANK (its chunks concatenated, each"
                + " to its fill level) to standard output as raw bytes, streamed through a fixed buffer. In a"
                + " key-value file the stream holds the record headers too.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:written", "1:the file was rejected (corrupt, not closed) or could not be read",
            "2:bad arguments, or no task (or more than one) has global rank RANK"})
public final class SionCatCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = {"-t", "--task"}, required = true, paramLabel = "RANK", description = "global rank of the task")
    private long globalRank;

    @Parameters(index = "0", paramLabel = "FILE", description = "the SION file (file 0 of a set)")
    private Path file;

    @Override
    public Integer call() {
        return CommandRun.run(spec, file, () -> {
            try (SionFile sion = SionFile.open(file)) {
                SionTask task = taskWithGlobalRank(sion);
                try (TaskStreamChannel stream = sion.openTaskStream(task.index());
                     Progress progress = Progress.onStderr(spec.qualifiedName(), task.totalBytes())) {
                    new TaskStreamCopy(progress).copy(stream, new StandardOutput());
                }
            }
            return 0;
        });
    }

    private SionTask taskWithGlobalRank(SionFile sion) {
        List<SionTask> matching = sion.tasks().stream().filter(task -> task.globalRank() == globalRank).toList();
        if (matching.size() == 1) {
            return matching.get(0);
        }
        long lowest = sion.tasks().stream().mapToLong(SionTask::globalRank).min().orElseThrow();
        long highest = sion.tasks().stream().mapToLong(SionTask::globalRank).max().orElseThrow();
        String problem = matching.isEmpty()
                ? "no task has global rank " + globalRank + " in " + file + " (its " + sion.taskCount()
                        + " tasks have global ranks " + lowest + ".." + highest + ")"
                : matching.size() + " tasks of " + file + " have global rank " + globalRank
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
