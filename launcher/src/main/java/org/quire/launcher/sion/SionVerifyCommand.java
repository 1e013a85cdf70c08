package org.quire.launcher.sion;

import org.quire.format.sion.KeyValueMode;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code quire sion verify FILE [--data]}: checks every structure of every physical file of a set.
 * Opening the set with {@link SionFile} validates META1, META2, the mapping, the agreement of the
 * set's members and the chunk geometry against each file's size; this command adds a walk over
 * every key-value record header and, with {@code --data}, a read of every task stream.
 */
@Command(name = "verify",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Check every structure (and with --data every byte) of a SION file or set.",
        description = "Checks every physical file of the set: META1 (magic, endianness word, versions, counts,"
                + " chunk sizes against the file size), META2 (chunk counts and fill levels), the mapping, that the"
                + " set's files agree, and in a key-value file every record header. With --data also reads every"
                + " task's stream to its end. Prints one line: the file is valid, or where it is not (file, offset,"
                + " field, expected and found).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:valid", "1:invalid: corrupt, not closed by its writer, unsupported, or unreadable",
            "2:bad arguments"})
public final class SionVerifyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--data", description = "also read every byte of every task's stream")
    private boolean data;

    @Mixin
    private SionInput input;

    @Override
    public Integer call() {
        return input.runOnOpenSet(sion -> {
            StringBuilder checked = new StringBuilder("metadata");
            if (sion.keyValueMode() == KeyValueMode.INLINE) {
                long records = 0;
                for (SionTask task : sion.tasks()) {
                    records += sion.keyValueRecords(task.index()).size();
                }
                checked.append(", ").append(records).append(" key-value record headers");
            }
            long dataBytes = sion.tasks().stream().mapToLong(SionTask::totalBytes).sum();
            if (data) {
                readAllStreams(sion, dataBytes);
                checked.append(", all data read");
            }
            int fileCount = sion.physicalFiles().size();
            System.out.println(input.file() + ": valid SION " + (fileCount == 1 ? "file" : "set of " + fileCount
                    + " files") + ", " + sion.taskCount() + (sion.taskCount() == 1 ? " task, " : " tasks, ")
                    + dataBytes + " bytes of data (checked: " + checked + ")");
            return 0;
        });
    }

    private void readAllStreams(SionFile sion, long dataBytes) throws IOException {
        try (Progress progress = Progress.onStderr(spec.qualifiedName(), dataBytes)) {
            TaskStreamCopy reader = new TaskStreamCopy(progress);
            for (SionTask task : sion.tasks()) {
                try (TaskStreamChannel stream = sion.openTaskStream(task.index())) {
                    reader.readToEnd(stream);
                }
            }
        }
    }
}
