package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.NoSuchElementException;

import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionSelector;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.InputFile;
import org.quire.launcher.UsageException;
import picocli.CommandLine.Parameters;

/**
 * The versioned file a {@code quire versions} tool works on, a picocli mixin: opens it, and turns
 * the versioned API's refusals into the tools' errors (a version that is not there, damaged data,
 * an operation Quire does not support on this file: status 1; a malformed version argument:
 * status 2, from {@link #resolve} alone). A tool's output reaches standard output only when it
 * succeeds, so a failure half-way prints no header.
 */
final class VersionedInput extends InputFile {

    /** A tool's work on the opened file, printing to standard output. */
    @FunctionalInterface
    interface OnVersionedFile {
        int run(VersionedFile file, PrintWriter out) throws IOException, UsageException;
    }

    @Parameters(index = "0", paramLabel = "FILE", description = "an HDF5 file with versioned-hdf5's /_version_data")
    private Path file;

    /** {@link #run} with FILE opened read-only, or for writing when {@code write}. */
    int runOnVersionedFile(boolean write, OnVersionedFile work) {
        return run(() -> {
            StringWriter decided = new StringWriter();
            int status;
            try (VersionedFile versioned = write ? VersionedFile.openForWriting(file) : VersionedFile.open(file)) {
                status = work.run(versioned, new PrintWriter(decided));
            } catch (NoSuchElementException | IllegalStateException | IndexOutOfBoundsException
                     | IllegalArgumentException | UnsupportedOperationException e) {
                // Arguments were checked by resolve: what is left is about the file's data.
                throw new IOException(e.getMessage(), e);
            }
            PrintWriter out = StandardOutput.open();
            out.print(decided);
            out.flush();
            return status;
        });
    }

    /**
     * The version {@code selector} names ({@link VersionSelector#resolve}); a malformed selector
     * is a usage error.
     */
    static VersionInfo resolve(VersionedFile file, String selector) throws IOException, UsageException {
        try {
            return VersionSelector.resolve(file, selector);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    @Override
    public Path file() {
        return file;
    }
}
