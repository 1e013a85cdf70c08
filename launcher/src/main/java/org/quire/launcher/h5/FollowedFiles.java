package org.quire.launcher.h5;

import java.io.IOException;
import java.nio.file.Path;

import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriterStatus;
import org.quire.launcher.CommandRun;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How {@code quire h5 ls}, {@code dump} and {@code verify} read a file a writer has open: when
 * a plain open is refused and the file opens for SWMR reading (its writer is an SWMR writer,
 * alive or dead), it is read that way, as of the writer's last commit, and one line on standard
 * error says so and what is known of the writer; any other writer's refusal stands.
 */
final class FollowedFiles {

    /** What a tool does with the file, opened plainly or as an SWMR reader. */
    @FunctionalInterface
    interface Read<T> {
        T run(boolean swmr) throws IOException;
    }

    private FollowedFiles() {
    }

    /** {@link Hdf5File#open}, or {@link Hdf5File#openSwmr} as the class says. */
    static Hdf5File open(CommandSpec spec, Path file) throws IOException {
        return read(spec, file, swmr -> swmr ? Hdf5File.openSwmr(file) : Hdf5File.open(file));
    }

    static <T> T read(CommandSpec spec, Path file, Read<T> read) throws IOException {
        try {
            return read.run(false);
        } catch (FileOpenForWritingException writing) {
            T result;
            try {
                result = read.run(true);
            } catch (FileOpenForWritingException notAnSwmrWriter) {
                throw writing;
            }
            CommandRun.error(spec, file + ": " + writer(file)
                    + "; read as of its last commit (SWMR reader)");
            return result;
        }
    }

    /** One line on the writer, from its lock and writer record. */
    private static String writer(Path file) throws IOException {
        WriterStatus status = Hdf5File.writerStatus(file);
        if (status.state() != WriterStatus.State.NO_WRITER) {
            return status.summary();
        }
        return WriterProbe.UNTRACKED_WRITER;
    }
}
