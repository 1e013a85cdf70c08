package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.WrongFormatException;
import org.quire.format.hdf5.cache.ForeignJournalException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/** The flush journal's life beside a file, and {@link Hdf5File#recover} of what a writer left. */
class Hdf5RecoveryTest {

    private static final Path FILE = Path.of("run.h5");

    @TempDir
    Path dir;

    /** A 1-D int dataset of no elements that grows without bound, in chunks of 4. */
    static DatasetSpec appendable() {
        return DatasetSpec.builder(Datatype.INT32, 0).maxShape(DatasetSpec.UNLIMITED)
                .chunkShape(4).build();
    }

    @Test
    void theJournalLivesBesideAnOpenFileAndGoesAtClose() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File file = Hdf5File.create(FILE, simulator)) {
            file.root().createDataset("d", appendable());
            file.flush();
            assertTrue(simulator.files().containsKey(Hdf5File.journalPath(FILE)));
            assertEquals(0, simulator.files().get(Hdf5File.journalPath(FILE)).length,
                    "emptied after the flush");
        }
        assertEquals(java.util.Set.of(FILE), simulator.files().keySet());
    }

    @Test
    void aKilledWritersFileIsRefusedUntilRecoveredThenHoldsItsLastFlush() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        Map<Path, byte[]> left;
        try (Hdf5File file = Hdf5File.create(FILE, simulator)) {
            Dataset d = file.root().createDataset("d", appendable());
            d.extend(6);
            d.write(new long[] {0}, new long[] {6}, new int[] {1, 2, 3, 4, 5, 6});
            file.flush();
            d.extend(10);
            d.write(new long[] {6}, new long[] {4}, new int[] {7, 8, 9, 10});
            left = simulator.processCrash(simulator.eventCount());
        }
        CrashSimulator disk = new CrashSimulator(left);
        FileOpenForWritingException refused = assertThrows(FileOpenForWritingException.class,
                () -> Hdf5File.open(FILE, disk));
        assertTrue(refused.getMessage().contains("run.h5"), refused.getMessage());
        Hdf5File.recover(FILE, disk);
        assertEquals(java.util.Set.of(FILE), disk.files().keySet(), "journal removed");
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            Dataset d = file.root().dataset("d");
            assertArrayEquals(new long[] {6}, d.shape());
            assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6},
                    d.readInts(new long[] {0}, new long[] {6}));
        }
    }

    @Test
    void recoverRefusesAFileALiveWriterHoldsAndChangesNothing() throws IOException {
        Path path = dir.resolve("live.h5");
        try (Hdf5File writer = Hdf5File.create(path)) {
            Dataset d = writer.root().createDataset("d", appendable());
            d.extend(3);
            d.write(new long[] {0}, new long[] {3}, new int[] {1, 2, 3});
            writer.flush();
            byte[] before = Files.readAllBytes(path);
            FileLockedException refused = assertThrows(FileLockedException.class,
                    () -> Hdf5File.recover(path));
            assertTrue(refused.getMessage().contains(path.toString()), refused.getMessage());
            assertArrayEquals(before, Files.readAllBytes(path), "flag still set, nothing written");
            assertTrue(Files.exists(Hdf5File.journalPath(path)), "the writer's journal stays");
            d.extend(5);
            d.write(new long[] {3}, new long[] {2}, new int[] {4, 5});
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new int[] {1, 2, 3, 4, 5},
                    file.root().dataset("d").readInts(new long[] {0}, new long[] {5}));
        }
    }

    @Test
    void recoverRefusesAFileASimulatedWriterHolds() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File writer = Hdf5File.create(FILE, simulator)) {
            writer.root().createDataset("d", appendable());
            writer.flush();
            int events = simulator.eventCount();
            assertThrows(FileLockedException.class, () -> Hdf5File.recover(FILE, simulator));
            assertEquals(events, simulator.eventCount(), "nothing written, nothing removed");
        }
        Hdf5File.recover(FILE, simulator);
    }

    @Test
    @StartsOutsideProgram
    void recoverRefusesAFileAnotherProcessHoldsLocked() throws Exception {
        Path path = dir.resolve("other.h5");
        try (Hdf5File writer = Hdf5File.create(path)) {
            writer.root().createDataset("d", appendable());
        }
        ExternalTools.requireH5py();
        Process holder = new ProcessBuilder(ExternalTools.PYTHON.toString(), "-c",
                String.join("\n", "import sys, fcntl",
                        "f = open(sys.argv[1], 'r+b')",
                        "fcntl.lockf(f, fcntl.LOCK_EX)",
                        "print('locked', flush=True)",
                        "sys.stdin.read()"), path.toString()).start();
        try (java.io.BufferedReader out = new java.io.BufferedReader(
                new java.io.InputStreamReader(holder.getInputStream(),
                        java.nio.charset.StandardCharsets.UTF_8))) {
            assertEquals("locked", out.readLine());
            assertThrows(FileLockedException.class, () -> Hdf5File.recover(path));
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        Hdf5File.recover(path);
    }

    @Test
    void aJournalOfAnotherFileIsRefusedAndNothingChanges() throws IOException {
        Map<Path, byte[]> crashed = KilledWriters.afterCommittingTheSecondFlush(FILE).files();
        CrashSimulator other = new CrashSimulator();
        Path clean = Path.of("clean.h5");
        try (Hdf5File file = Hdf5File.create(clean, other)) {
            file.root().createGroup("g");
        }
        byte[] before = other.files().get(clean);
        try (Storage journal = other.open(Hdf5File.journalPath(clean), OpenMode.CREATE_NEW)) {
            journal.write(ByteBuffer.wrap(crashed.get(Hdf5File.journalPath(FILE))), 0);
        }
        ForeignJournalException refused = assertThrows(ForeignJournalException.class,
                () -> Hdf5File.recover(clean, other));
        assertTrue(refused.getMessage().contains("clean.h5.qjnl"), refused.getMessage());
        assertArrayEquals(before, other.files().get(clean));
        assertTrue(other.files().containsKey(Hdf5File.journalPath(clean)), "journal kept");
        try (Hdf5File file = Hdf5File.open(clean, other)) {
            assertTrue(file.root().group("g") != null);
        }
        CrashSimulator own = new CrashSimulator(crashed);
        Hdf5File.recover(FILE, own);
        try (Hdf5File file = Hdf5File.open(FILE, own)) {
            assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6},
                    file.root().dataset("d").readInts(new long[] {0}, new long[] {6}));
        }
    }

    /**
     * A crash inside {@code create}, a killed writer or a power failure (three seeds): before
     * its journal is written (a killed writer) or forced (a power failure) it leaves no HDF5
     * file, refused with one line; from then on recover replays the journal, which writes the
     * superblock, and the file opens with its empty root group.
     */
    @Test
    void aCrashInsideCreateLeavesNoFileOrTheEmptyOneOnceItsJournalIsWritten()
            throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        int created;
        try (Hdf5File file = Hdf5File.create(FILE, simulator,
                WriteOptions.DEFAULT.withDurability(Durability.EVERY_FLUSH))) {
            created = simulator.eventCount();
        }
        Path journal = Hdf5File.journalPath(FILE);
        int written = simulator.firstEvent(0, CrashSimulator.Write.class, journal);
        int forced = simulator.firstEvent(written, CrashSimulator.Force.class, journal);
        for (int point = 0; point <= created; point++) {
            for (long seed = -1; seed < 3; seed++) {
                Map<Path, byte[]> left = seed < 0 ? simulator.processCrash(point)
                        : simulator.crash(point, seed);
                String where = "crash at event " + point + " (seed " + seed + ")";
                CrashSimulator disk = new CrashSimulator(left);
                try {
                    Hdf5File.recover(FILE, disk);
                    try (Hdf5File file = Hdf5File.open(FILE, disk)) {
                        assertEquals(List.of(), file.root().memberNames(), where);
                    }
                } catch (WrongFormatException | java.nio.file.NoSuchFileException e) {
                    assertTrue(point <= (seed < 0 ? written : forced), where + ": " + e);
                    assertTrue(e.getMessage().startsWith("run.h5"), e.getMessage());
                }
            }
        }
    }

    @Test
    void recoveringAClosedFileChangesNothing() throws IOException {
        Path path = dir.resolve("closed.h5");
        try (Hdf5File file = Hdf5File.create(path,
                WriteOptions.DEFAULT.withDurability(Durability.EVERY_FLUSH))) {
            Dataset d = file.root().createDataset("d", appendable());
            d.extend(3);
            d.write(new long[] {0}, new long[] {3}, new int[] {7, 8, 9});
        }
        assertTrue(Files.notExists(Hdf5File.journalPath(path)));
        byte[] before = Files.readAllBytes(path);
        Hdf5File.recover(path);
        assertArrayEquals(before, Files.readAllBytes(path));
    }

    @Test
    void writeOptionsRefuseAMissingDurabilityAndATinyCache() {
        assertThrows(IllegalArgumentException.class, () -> new WriteOptions(null, 1 << 20));
        IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class,
                () -> WriteOptions.DEFAULT.withMetadataCacheBytes(100));
        assertTrue(tiny.getMessage().contains("100"), tiny.getMessage());
    }
}
