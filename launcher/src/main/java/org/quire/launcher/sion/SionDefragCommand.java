package org.quire.launcher.sion;

import org.quire.format.sion.SionDefragmenter;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionTask;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code quire sion defrag IN OUT}: the set rewritten as one file with one chunk per task, as siondefrag. */
@Command(name = "defrag",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Rewrite a SION file or set with one chunk per task.",
        description = "Rewrites the SION file or set IN as the single file OUT in which every task has exactly one"
                + " chunk, sized to its data, keeping global ranks, key-value mode and the declared user-data byte"
                + " order (SIONlib's siondefrag; with --block-size 1 the output is byte-identical to siondefrag -q 1"
                + " apart from the stored name). OUT is written aside as OUT.partial and renamed to OUT once complete,"
                + " replacing an existing OUT: a failure leaves no partial OUT and an existing OUT as it was.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:written", "1:IN was rejected (corrupt, not closed), or reading or writing failed",
            "2:bad arguments"})
public final class SionDefragCommand implements Callable<Integer> {

    private static final long PROGRESS_INTERVAL_MILLIS = 250;

    @Spec
    private CommandSpec spec;

    @Option(names = "--block-size", paramLabel = "BYTES",
            description = "file system block size of OUT, to which chunks are aligned (default: that of IN;"
                    + " 1 = no alignment, the smallest file)")
    private Integer blockSize;

    @Option(names = "--no-fsync", description = "do not force OUT to disk before it is marked closed")
    private boolean noFsync;

    @Parameters(index = "0", paramLabel = "IN", description = "the SION file (file 0 of a set)")
    private Path input;

    @Parameters(index = "1", paramLabel = "OUT", description = "the file to write")
    private Path output;

    @Override
    public Integer call() {
        if (blockSize != null && blockSize < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--block-size must be at least 1, got "
                    + blockSize);
        }
        return CommandRun.run(spec, input, () -> {
            if (Files.exists(output) && Files.isSameFile(input, output)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "OUT " + output
                        + " is IN; write to another file");
            }
            int outputBlockSize;
            long dataBytes;
            try (SionFile sion = SionFile.open(input)) {
                outputBlockSize = blockSize != null ? blockSize
                        : sion.physicalFiles().get(0).meta1().fixedPart().fsBlockSize();
                dataBytes = sion.tasks().stream().mapToLong(SionTask::totalBytes).sum();
            }
            try (Progress progress = Progress.onStderr(spec.qualifiedName(), dataBytes)) {
                Thread watcher = progress.active() ? watchOutputSize(progress) : null;
                try {
                    SionDefragmenter.defragment(input, output, outputBlockSize, !noFsync);
                } finally {
                    if (watcher != null) {
                        watcher.interrupt();
                        joinQuietly(watcher);
                    }
                }
                progress.set(dataBytes);
            }
            return 0;
        });
    }

    /**
     * The defragmenter has no progress callback, but it writes OUT front to back (one chunk per
     * task, in task order) into OUT.partial, whose size tells how far it got.
     */
    private Thread watchOutputSize(Progress progress) {
        Thread watcher = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Path partial = SionFileNames.partial(output);
                    if (Files.exists(partial)) {
                        progress.set(Files.size(partial));
                    }
                    Thread.sleep(PROGRESS_INTERVAL_MILLIS);
                }
            } catch (InterruptedException | IOException stopped) {
                // The defragmenter finished or failed; it reports its own errors.
            }
        }, "defrag-progress");
        watcher.setDaemon(true);
        watcher.start();
        return watcher;
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
