package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WriterStatus} from the writer byte's lock and the writer record, in every case, with
 * the summary a user reads ("quire h5 ls", a refused opener): a held lock; a fresh record of
 * another host, of a live process of this host, of a dead one; a stale record; none.
 */
class WriterStatusMutationGapsTest {

    /** No process has this id: Linux allows at most 2^22. */
    private static final long DEAD_PID = 999_999_999L;
    private static final String SINCE = "open since 2025-11-25T18:01:02.123Z, last beat _ s ago";

    @TempDir
    Path dir;

    /** The heartbeat's age changes while a test runs: every summary names it as "_". */
    private static String steady(String summary) {
        return summary.replaceAll("last beat -?[0-9]+\\.[0-9] s ago", "last beat _ s ago");
    }

    /** The record of an SWMR writer {@code pid} on {@code host} that beat that long ago. */
    private record Beating(long pid, String host, long beatAgoMillis) {
    }

    private static Beating record(long pid, String host, long beatAgoMillis) {
        return new Beating(pid, host, beatAgoMillis);
    }

    private static final Beating NONE = null;

    static Stream<Arguments> statuses() {
        long me = ProcessHandle.current().pid();
        String host = WriterRecord.THIS_HOST;
        return Stream.of(
                Arguments.of(record(7, "node17", 0), true, "ALIVE: writer alive (SWMR writer, "
                        + "pid 7 on node17, " + SINCE + ")"),
                Arguments.of(NONE, true, "ALIVE: writer alive (no writer record yet: a Quire "
                        + "writer that has not written it, or not a Quire writer)"),
                Arguments.of(NONE, false, "NO_WRITER: no writer"),
                Arguments.of(record(7, "node17", 0), false, "ALIVE: writer alive by its "
                        + "heartbeat (SWMR writer, pid 7 on node17, " + SINCE + "; its lock is "
                        + "not visible from this host)"),
                Arguments.of(record(me, host, 0), false, "ALIVE: writer alive by its heartbeat "
                        + "and process (SWMR writer, pid " + me + " on " + host + ", " + SINCE
                        + "; its lock is gone)"),
                Arguments.of(record(DEAD_PID, host, 0), false, "DEAD: writer dead (SWMR writer, "
                        + "pid " + DEAD_PID + " on " + host + ", " + SINCE + ", its lock "
                        + "released): its last commit is final"),
                Arguments.of(record(7, "node17", 60_000), false, "DEAD: writer dead (SWMR "
                        + "writer, pid 7 on node17, " + SINCE + ", its lock released): its last "
                        + "commit is final"),
                Arguments.of(record(me, host, 60_000), false, "DEAD: writer dead (SWMR writer, "
                        + "pid " + me + " on " + host + ", " + SINCE + ", its lock released): "
                        + "its last commit is final"));
    }

    @ParameterizedTest
    @MethodSource("statuses")
    void theLockAndTheRecordTellTheStatus(Beating writer, boolean lockHeld, String expected)
            throws IOException {
        Path file = dir.resolve("x.h5");
        if (writer != null) {
            new WriterRecord(writer.pid(), writer.host(), WriterRecord.Mode.SWMR,
                    1_764_093_662_123L, 3, System.currentTimeMillis() - writer.beatAgoMillis())
                    .write(file);
        }
        WriterStatus status = WriterStatus.of(file, lockHeld);
        assertEquals(expected, status.state() + ": " + steady(status.summary()));
    }

    /** The public entry: a writer of this JVM holds the file, then has closed it. */
    @Test
    void aWriterOfThisJvmIsAliveWhileItHoldsTheFile() throws IOException {
        Path file = dir.resolve("open.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            assertEquals("ALIVE: writer alive (writer, pid " + ProcessHandle.current().pid()
                    + " on " + WriterRecord.THIS_HOST + ", open since "
                    + java.time.Instant.ofEpochMilli(WriterRecord.read(file).sinceMillis())
                    + ", last beat _ s ago)", Hdf5File.writerStatus(file).state() + ": "
                    + steady(Hdf5File.writerStatus(file).summary()));
        }
        assertEquals(new WriterStatus(WriterStatus.State.NO_WRITER, "no writer"),
                Hdf5File.writerStatus(file));
    }
}
