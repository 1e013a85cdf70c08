package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.StartsOutsideProgram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer record beside a file is written by whoever can write the directory: a record that is
 * not one (a FIFO, a huge or binary file, a hostile host name, a heartbeat from the future) is a
 * one-line {@link CorruptFileException} or a stale writer, never a hang, an OutOfMemoryError or a
 * writer "alive" forever; a link planted where a writer puts its side files is never followed.
 */
class WriterRecordTest {

    @TempDir
    Path dir;

    private CorruptFileException refused(Path file) {
        return assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(CorruptFileException.class, () -> WriterRecord.read(file)));
    }

    @Test
    void aRecordRemovedWhileItIsReadIsNone() throws Exception {
        // A writer closing removes its record: a reader between the check and the open saw
        // NoSuchFileException (found by SwmrInJobIT: a follower's writerStatus failed at the end).
        Path file = dir.resolve("closing.h5");
        WriterRecord record = WriterRecord.ofThisProcess(WriterRecord.Mode.SWMR, 1000);
        AtomicBoolean done = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                while (!done.get()) {
                    record.write(file);
                    WriterRecord.remove(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.start();
        try {
            long seen = 0;
            long end = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < end) {
                WriterRecord read = WriterRecord.read(file);
                if (read != null) {
                    assertEquals(record, read);
                    seen++;
                }
            }
            assertTrue(seen > 0, "the record was read at least once");
        } finally {
            done.set(true);
            writer.join();
        }
    }

    @Test
    @StartsOutsideProgram
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path file = dir.resolve("fifo.h5");
        ExternalTools.startsOutsideProgram("mkfifo");
        Process mkfifo = new ProcessBuilder("mkfifo", WriterRecord.pathOf(file).toString()).start();
        assertEquals(0, mkfifo.waitFor());
        assertTrue(refused(file).getMessage().contains("not a regular file"));
    }

    @Test
    void aHugeRecordIsRefusedUnread() throws IOException {
        Path file = dir.resolve("huge.h5");
        Files.write(WriterRecord.pathOf(file), new byte[WriterRecord.MAX_BYTES + 1]);
        assertTrue(refused(file).getMessage().contains("at most 4096 bytes"));
    }

    @Test
    void bytesThatAreNotTextAreCorrupt() throws IOException {
        Path file = dir.resolve("binary.h5");
        Files.write(WriterRecord.pathOf(file), new byte[] {'q', (byte) 0xff, (byte) 0xfe, '\n'});
        assertTrue(refused(file).getMessage().contains("UTF-8"));
    }

    @Test
    void aHostNameThatWouldReachATerminalIsCorrupt() throws IOException {
        Path file = dir.resolve("host.h5");
        String record = WriterRecord.ofThisProcess(WriterRecord.Mode.WRITE, 1000).encode()
                .replace("host " + WriterRecord.THIS_HOST, "host evil\u001b[2J");
        Files.writeString(WriterRecord.pathOf(file), record, StandardCharsets.UTF_8);
        assertFalse(refused(file).getMessage().contains("\u001b"));
    }

    @Test
    void aHeartbeatFromTheFutureIsStale() {
        WriterRecord record = new WriterRecord(1, "elsewhere", WriterRecord.Mode.SWMR, 0, 5,
                9_999_999_999_999L);
        assertTrue(record.stale(1_764_000_000_000L));
        WriterRecord recent = new WriterRecord(1, "elsewhere", WriterRecord.Mode.SWMR, 0, 5,
                1_764_000_001_000L);
        assertFalse(recent.stale(1_764_000_000_000L), "a second ahead: clocks differ a little");
        assertFalse(recent.stale(1_764_000_002_000L));
        assertTrue(recent.stale(1_764_000_004_500L));
    }

    /**
     * This process writes a fresh record but holds no lock (as when the OS dropped it): the
     * writer is alive by its heartbeat and process, and recover refuses to touch its file.
     */
    @Test
    void aLiveWriterWithoutItsLockIsAliveAndNotRecovered() throws IOException {
        Path file = dir.resolve("unlocked.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            writer.root().createGroup("g");
        }
        byte[] before = Files.readAllBytes(file);
        WriterRecord.ofThisProcess(WriterRecord.Mode.SWMR, System.currentTimeMillis()).write(file);
        assertEquals(WriterStatus.State.ALIVE, Hdf5File.writerStatus(file).state());
        FileLockedException refused = assertThrows(FileLockedException.class,
                () -> Hdf5File.recover(file));
        assertTrue(refused.getMessage().contains("its lock is gone"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));

        new WriterRecord(ProcessHandle.current().pid(), WriterRecord.THIS_HOST,
                WriterRecord.Mode.SWMR, 0, 3, System.currentTimeMillis() - 10_000).write(file);
        assertEquals(WriterStatus.State.DEAD, Hdf5File.writerStatus(file).state(),
                "a stale heartbeat: the writer is gone whatever runs under its pid now");
    }

    @Test
    void aLinkAtTheTemporaryRecordIsReplacedNotFollowed() throws IOException {
        Path file = dir.resolve("linked.h5");
        Path victim = Files.writeString(dir.resolve("victim"), "keep me");
        Files.createSymbolicLink(WriterRecord.pathOf(file).resolveSibling("linked.h5.qwriter.tmp"),
                victim);
        WriterRecord record = WriterRecord.ofThisProcess(WriterRecord.Mode.WRITE, 1000);
        record.write(file);
        assertEquals("keep me", Files.readString(victim));
        assertEquals(record, WriterRecord.read(file));
    }

    @Test
    void aLinkAtTheJournalIsNeverTruncated() throws IOException {
        Path file = dir.resolve("journal.h5");
        byte[] kept = "another file's bytes".getBytes(StandardCharsets.UTF_8);
        Path victim = Files.write(dir.resolve("victim.bin"), kept);
        Files.createSymbolicLink(Hdf5File.journalPath(file), victim);
        assertThrows(IOException.class, () -> Hdf5File.create(file).close());
        assertArrayEquals(kept, Files.readAllBytes(victim));
    }
}
