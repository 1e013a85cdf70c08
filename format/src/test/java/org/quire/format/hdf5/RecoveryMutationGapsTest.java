package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.SuperblockV0;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.storage.CrashSimulator;

/**
 * What {@link Hdf5File#recover} finds and does to each kind of file (closed, killed with a
 * committed journal, an end of file address short of or past the file, superblock 0 with and
 * without Quire's writing guard, superblock 2), as its {@link Recovery} says and the file then
 * shows; on a {@link CrashSimulator}.
 */
class RecoveryMutationGapsTest {

    private static final Path FILE = Path.of("run.h5");

    @TempDir
    Path dir;

    /** A closed file with dataset d = 1..6. */
    private static CrashSimulator closedFile() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File file = Hdf5File.create(FILE, simulator)) {
            Dataset d = file.root().createDataset("d", Hdf5RecoveryTest.appendable());
            d.extend(6);
            d.write(new long[] {0}, new long[] {6}, new int[] {1, 2, 3, 4, 5, 6});
        }
        return new CrashSimulator(simulator.files());
    }

    private static int[] readD(CrashSimulator disk) throws IOException {
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            Dataset d = file.root().dataset("d");
            return d.readInts(new long[] {0}, d.shape());
        }
    }

    @Test
    void aClosedFileIsLeftAsItIs() throws IOException {
        CrashSimulator disk = closedFile();
        byte[] before = disk.files().get(FILE);
        Recovery recovery = Hdf5File.recover(FILE, disk);
        assertEquals(new Recovery(0, before.length, before.length, 0), recovery);
        assertFalse(recovery.changed());
        assertArrayEquals(before, disk.files().get(FILE));
    }

    /**
     * A writer killed right after it committed the journal of its second flush: every block
     * the flush writes in place is replayed from the journal, and the file holds that flush.
     */
    @Test
    void aCommittedJournalIsReplayedBlockForBlock() throws IOException {
        KilledWriters.AfterCommit left = KilledWriters.afterCommittingTheSecondFlush(FILE);
        Map<Path, byte[]> killed = left.files();
        CrashSimulator disk = new CrashSimulator(killed);
        long size = killed.get(FILE).length;
        Recovery recovery = Hdf5File.recover(FILE, disk);
        // The end of file address before: the replayed superblock's, the file's size.
        assertEquals(new Recovery(SuperblockV3.FLAG_OPEN_FOR_WRITE, size, size,
                left.inPlaceWrites()), recovery);
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, readD(disk));
        assertEquals(java.util.Set.of(FILE), disk.files().keySet(), "journal removed");
    }

    /**
     * Recovery's writes are forced before the journal goes: a power failure right after it
     * leaves the replayed, cleared file, whichever unforced writes a crash keeps.
     */
    @Test
    void aPowerFailureAfterRecoveryKeepsWhatItWrote() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File file = Hdf5File.create(FILE, simulator)) {
            Dataset d = file.root().createDataset("d", Hdf5RecoveryTest.appendable());
            d.extend(3);
            d.write(new long[] {0}, new long[] {3}, new int[] {7, 8, 9});
            file.flush();
            simulator = new CrashSimulator(simulator.processCrash(simulator.eventCount()));
        }
        Hdf5File.recover(FILE, simulator);
        for (long seed = 0; seed < 8; seed++) {
            CrashSimulator disk = new CrashSimulator(
                    simulator.crash(simulator.eventCount(), seed));
            assertArrayEquals(new int[] {7, 8, 9}, readD(disk), "seed " + seed);
        }
    }

    /**
     * An end of file address short of the file (libhdf5's SWMR writer leaves the one of its
     * switch) is raised to the file's size, nothing cut, with flags 0 too; a second recovery
     * then finds nothing to change.
     */
    @Test
    void aShortEndOfFileAddressIsRaisedToTheFileSize() throws IOException {
        CrashSimulator closed = closedFile();
        byte[] bytes = closed.files().get(FILE);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 100);
        CrashSimulator disk = new CrashSimulator(Map.of(FILE, longer));
        Recovery raised = Hdf5File.recover(FILE, disk);
        assertEquals(new Recovery(0, bytes.length, longer.length, 0), raised);
        assertTrue(raised.changed());
        assertEquals(longer.length, disk.files().get(FILE).length, "nothing cut");
        assertEquals(new Recovery(0, longer.length, longer.length, 0),
                Hdf5File.recover(FILE, disk));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, readD(disk));
    }

    /** An end of file address past the file: a file cut short, not a crashed writer's. */
    @Test
    void aFileCutShortIsRefusedUnchanged() throws IOException {
        byte[] bytes = closedFile().files().get(FILE);
        byte[] shorter = Arrays.copyOf(bytes, bytes.length - 1);
        CrashSimulator disk = new CrashSimulator(Map.of(FILE, shorter));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5File.recover(FILE, disk));
        assertTrue(e.getMessage().contains("end of file address")
                && e.getMessage().contains("at most the file size " + shorter.length)
                && e.getMessage().contains(Integer.toString(bytes.length)), e.getMessage());
        assertArrayEquals(shorter, disk.files().get(FILE));
    }

    /**
     * A version 0 superblock: a killed writer's writing guard (end of file 2^63-1) gives way
     * to the file's size; one short of the file is raised. Either way the superblock stays a
     * version 0 one, which Quire reads again.
     */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void aVersion0SuperblockGetsTheFileSizeAndStaysVersion0(boolean killedWriter)
            throws IOException {
        byte[] compat = Files.readAllBytes(
                H5pyFixtures.of(H5pyFixtures.COMPAT).file("compat.h5"));
        CrashSimulator disk;
        if (killedWriter) {
            CrashSimulator simulator = new CrashSimulator(Map.of(FILE, compat));
            try (Hdf5File file = Hdf5File.openForWriting(FILE, simulator, WriteOptions.DEFAULT)) {
                file.root().createGroup("added");
                file.flush();
                disk = new CrashSimulator(simulator.processCrash(simulator.eventCount()));
            }
        } else {
            disk = new CrashSimulator(Map.of(FILE, Arrays.copyOf(compat, compat.length + 100)));
        }
        long size = disk.files().get(FILE).length;
        Recovery recovery = Hdf5File.recover(FILE, disk);
        assertEquals(killedWriter ? new Recovery(SuperblockV0.FLAG_OPEN_FOR_WRITE,
                SuperblockV0.WRITING_GUARD, size, 0)
                : new Recovery(0, compat.length, size, 0), recovery);
        assertEquals(0, disk.files().get(FILE)[8], "superblock version");
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            assertEquals(killedWriter, file.root().contains("added"));
        }
    }

    /**
     * Superblock 2 (libhdf5 {@code libver='v108'}) has no "open for writing" flag to tell a
     * crashed writer and Quire does not write it: refused as documented, nothing written, also
     * when its end of file address lies short of the file (which recovery would raise). Here
     * the file with a 'K' values superblock extension, which a version 3 superblock written in
     * its place would lose.
     */
    @Test
    void aVersion2SuperblockIsRefusedUnchanged() throws IOException {
        byte[] v108 = Files.readAllBytes(
                H5pyFixtures.of(H5pyFixtures.LEGACY).file("ranks_v108.h5"));
        byte[] longer = Arrays.copyOf(v108, v108.length + 100);
        CrashSimulator disk = new CrashSimulator(Map.of(FILE, longer));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.recover(FILE, disk));
        assertTrue(e.getMessage().startsWith("run.h5: "), e.getMessage());
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        assertArrayEquals(longer, disk.files().get(FILE));
    }

    /**
     * A file on disk: the dead writer's record beside it goes with the recovery, so the
     * writer's status is "no writer" again.
     */
    @Test
    void recoveringAFileOnDiskRemovesTheDeadWritersRecord() throws IOException {
        Path path = dir.resolve("dead.h5");
        Files.write(path, closedFile().files().get(FILE));
        Files.writeString(WriterRecord.pathOf(path), "quire-writer 1\npid 4242\nhost n1\n"
                + "mode write\nsince 0\nbeat 7\nbeat-time 0\n");
        assertEquals(WriterStatus.State.DEAD, Hdf5File.writerStatus(path).state());
        long size = Files.size(path);
        assertEquals(new Recovery(0, size, size, 0), Hdf5File.recover(path));
        assertFalse(Files.exists(WriterRecord.pathOf(path)));
        assertEquals(WriterStatus.State.NO_WRITER, Hdf5File.writerStatus(path).state());
    }

    /** {@link Recovery#changed()}: any flag, a new end of file, or a replayed block. */
    @ParameterizedTest
    @CsvSource({
            "0, 100, 100, 0, false",
            "1, 100, 100, 0, true",
            "5, 100, 100, 0, true",
            "0, 90, 100, 0, true",
            "0, 100, 100, 1, true",
    })
    void changedIsAnyFlagANewEndOfFileOrAReplayedBlock(int flags, long before, long after,
                                                       int replayed, boolean changed) {
        assertEquals(changed, new Recovery(flags, before, after, replayed).changed());
    }
}
