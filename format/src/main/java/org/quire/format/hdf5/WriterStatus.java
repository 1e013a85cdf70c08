package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Whether a writer has an HDF5 file open, told without talking to it: the lock on the file's
 * writer byte ({@link OpenLocks}) and the heartbeat of the {@link WriterRecord} beside it. A
 * writer on another host whose lock this host cannot see (some network file systems) is alive
 * while its heartbeat is fresh; so is one on this host whose process runs with a fresh heartbeat
 * though its lock is gone (POSIX drops a process's locks when any of its descriptors of the file
 * closes).
 *
 * @param state   what the lock and the record say
 * @param summary one line for people, e.g. "writer alive (SWMR writer, pid 4242 on n1, open
 *                since ..., last beat 0.4 s ago)"
 */
public record WriterStatus(State state, String summary) {

    public enum State {
        /** No writer holds the lock and none left a record: the file is closed. */
        NO_WRITER,
        /** A writer holds the file now. */
        ALIVE,
        /** A writer's record is left but the writer is gone: its last commit is final. */
        DEAD
    }

    /** The status of {@code file}, whose writer byte is locked ({@code lockHeld}) or not. */
    static WriterStatus of(Path file, boolean lockHeld) throws IOException {
        WriterRecord record = WriterRecord.read(file);
        long now = System.currentTimeMillis();
        if (lockHeld) {
            return new WriterStatus(State.ALIVE, "writer alive (" + (record != null
                    ? record.describe(now) : "no writer record yet: a Quire writer that has not written "
                    + "it, or not a Quire writer") + ")");
        }
        if (record == null) {
            return new WriterStatus(State.NO_WRITER, "no writer");
        }
        if (!record.stale(now)) {
            if (!record.host().equals(WriterRecord.THIS_HOST)) {
                return new WriterStatus(State.ALIVE, "writer alive by its heartbeat ("
                        + record.describe(now) + "; its lock is not visible from this host)");
            }
            if (ProcessHandle.of(record.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                // The OS dropped its lock (something in that process closed the file outside
                // Quire); it still beats, so it still writes.
                return new WriterStatus(State.ALIVE, "writer alive by its heartbeat and process ("
                        + record.describe(now) + "; its lock is gone)");
            }
        }
        return new WriterStatus(State.DEAD, "writer dead (" + record.describe(now)
                + ", its lock released): its last commit is final");
    }
}
