package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.NoSuchElementException;

import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.InputFile;
import org.quire.launcher.UsageException;
import picocli.CommandLine.Parameters;

/**
 * The versioned file a {@code quire versions} tool works on, a picocli mixin: opens it, and turns
 * the versioned API's refusals into the tools' errors (a version that is not there: status 1; a
 * malformed version argument: status 2).
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
            PrintWriter out = StandardOutput.open();
            try (VersionedFile versioned = write ? VersionedFile.openForWriting(file) : VersionedFile.open(file)) {
                return work.run(versioned, out);
            } catch (NoSuchElementException | IllegalStateException | IndexOutOfBoundsException e) {
                throw new IOException(e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
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
