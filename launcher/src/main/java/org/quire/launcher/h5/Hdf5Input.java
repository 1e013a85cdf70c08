package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.InputFile;
import org.quire.launcher.UsageException;
import picocli.CommandLine.Parameters;

/** The HDF5 file a tool reads, a picocli mixin. */
final class Hdf5Input extends InputFile {

    /** A tool's work on the file, opened, printing to standard output. */
    @FunctionalInterface
    interface OnOpenFile {
        int run(Hdf5File hdf5, PrintWriter out) throws IOException, UsageException;
    }

    @Parameters(index = "0", paramLabel = "FILE", description = "an HDF5 file")
    private Path file;

    /**
     * {@link #run} with FILE opened as {@link FollowedFiles#open} does, closed after {@code
     * work}, and standard output flushed after it even when it failed.
     */
    int runOnOpenFile(OnOpenFile work) {
        return run(() -> {
            PrintWriter out = StandardOutput.open();
            try (Hdf5File hdf5 = FollowedFiles.open(spec(), file)) {
                return work.run(hdf5, out);
            } finally {
                out.flush();
            }
        });
    }

    @Override
    public Path file() {
        return file;
    }
}
