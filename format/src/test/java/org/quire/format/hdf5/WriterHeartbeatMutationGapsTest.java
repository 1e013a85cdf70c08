package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WriterHeartbeat}: the record it writes at start, renews every second and rewrites at
 * a mode change; a record that cannot be written now written by the next beat; nothing
 * written once it is closed, by a beat that was waiting either.
 */
class WriterHeartbeatMutationGapsTest {

    @TempDir
    Path dir;

    /** The record beside {@code file} once its beat is at least {@code beat}, within 10 s. */
    private static WriterRecord awaitBeat(Path file, long beat) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        WriterRecord record = WriterRecord.read(file);
        while (record.beat() < beat && System.nanoTime() < end) {
            Thread.sleep(20);
            record = WriterRecord.read(file);
        }
        return record;
    }

    @Test
    void itBeatsSwitchesModeAndRemovesItsRecordAtClose() throws Exception {
        Path file = dir.resolve("x.h5");
        long before = System.currentTimeMillis();
        WriterHeartbeat heartbeat = WriterHeartbeat.start(file, WriterRecord.Mode.WRITE);
        WriterRecord first = WriterRecord.read(file);
        assertEquals(new WriterRecord(ProcessHandle.current().pid(), WriterRecord.THIS_HOST,
                WriterRecord.Mode.WRITE, first.sinceMillis(), 0, first.sinceMillis()), first);
        assertTrue(first.sinceMillis() >= before);

        WriterRecord beaten = awaitBeat(file, 1);
        assertEquals(new WriterRecord(first.pid(), first.host(), WriterRecord.Mode.WRITE,
                first.sinceMillis(), beaten.beat(), beaten.beatMillis()), beaten);
        assertTrue(beaten.beat() >= 1, beaten.toString());
        assertTrue(beaten.beatMillis() - first.beatMillis() >= WriterHeartbeat.PERIOD_MILLIS,
                beaten + " after " + first);

        heartbeat.mode(WriterRecord.Mode.SWMR);
        WriterRecord swmr = WriterRecord.read(file);
        assertEquals(WriterRecord.Mode.SWMR, swmr.mode(), "written at once, not at the next beat");
        assertTrue(swmr.beat() >= 2, swmr.toString());
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("quire-writer-heartbeat"))
                .allMatch(Thread::isDaemon), "a JVM whose writer was never closed still exits");

        heartbeat.close();
        assertFalse(Files.exists(WriterRecord.pathOf(file)));
        Thread.sleep(1_500);
        assertFalse(Files.exists(WriterRecord.pathOf(file)), "no beat after close");
    }

    /**
     * A beat due while the writer closes waits for it, then writes nothing: the record of a
     * closed file does not come back.
     */
    @Test
    void aBeatWaitingForACloseWritesNothing() throws Exception {
        Path file = dir.resolve("x.h5");
        WriterHeartbeat heartbeat = WriterHeartbeat.start(file, WriterRecord.Mode.WRITE);
        synchronized (heartbeat) {
            Thread.sleep(WriterHeartbeat.PERIOD_MILLIS + 300); // the first beat waits
            heartbeat.close();
        }
        Thread.sleep(300);
        assertFalse(Files.exists(WriterRecord.pathOf(file)));
    }

    /**
     * A mode change that cannot be written now (something occupies the temporary record) is
     * no failure; the next beat writes the record in its new mode.
     */
    @Test
    void aModeChangeThatCannotBeWrittenIsWrittenByTheNextBeat() throws Exception {
        Path file = dir.resolve("x.h5");
        try (WriterHeartbeat heartbeat = WriterHeartbeat.start(file, WriterRecord.Mode.WRITE)) {
            Path obstacle = WriterRecord.pathOf(file).resolveSibling("x.h5.qwriter.tmp");
            Files.createDirectories(obstacle.resolve("full"));
            assertDoesNotThrow(() -> heartbeat.mode(WriterRecord.Mode.SWMR));
            assertEquals(WriterRecord.Mode.WRITE, WriterRecord.read(file).mode());
            Thread.sleep(WriterHeartbeat.PERIOD_MILLIS + 300); // a beat fails as well
            Files.delete(obstacle.resolve("full"));
            Files.delete(obstacle);
            WriterRecord next = awaitBeat(file, 2);
            assertEquals(WriterRecord.Mode.SWMR, next.mode());
        }
        assertFalse(Files.exists(WriterRecord.pathOf(file)));
    }
}
