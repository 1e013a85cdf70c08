package org.quire.launcher.h5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriterStatus;

/**
 * Whether a file's writer is still writing, told without talking to it: a Quire writer by its
 * lock and heartbeat ({@link Hdf5File#writerStatus}); a file without a Quire writer by whether a
 * plain reader may open it (its superblock says no writer has it open) or not (libhdf5's or
 * h5py's SWMR writer has it open or died with it open: it keeps no record, so which is unknown).
 *
 * @param state   what is known
 * @param summary one line for people, saying the state first
 */
record WriterProbe(State state, String summary) {

    /** What is said of a writer that keeps no Quire lock or record. */
    static final String UNTRACKED_WRITER = "an SWMR writer has it open, or died with it open "
            + "(superblock flags); it keeps no Quire lock or writer record (libhdf5's, h5py's), so "
            + "whether it is alive is unknown";

    enum State {
        /** A Quire writer holds the file or beats. */
        ALIVE,
        /** A Quire writer's record is left, its writer gone: its last commit is final. */
        DEAD,
        /** No writer has the file open. */
        CLOSED,
        /** A writer that keeps no Quire record has it open, or died with it open. */
        UNKNOWN;

        /** The lower-case name, for the view and the JSON. */
        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static WriterProbe of(Path file) throws IOException {
        WriterStatus status = Hdf5File.writerStatus(file);
        switch (status.state()) {
            case ALIVE:
                return new WriterProbe(State.ALIVE, status.summary());
            case DEAD:
                return new WriterProbe(State.DEAD, status.summary());
            default:
                try (Hdf5File plain = Hdf5File.open(file)) {
                    return new WriterProbe(State.CLOSED, "no writer: the file is closed");
                } catch (FileOpenForWritingException open) {
                    return new WriterProbe(State.UNKNOWN, "writer unknown: " + UNTRACKED_WRITER);
                }
        }
    }

    /** Whether the file may still grow: its writer is alive, or may be. */
    boolean mayStillWrite() {
        return state == State.ALIVE || state == State.UNKNOWN;
    }
}
