package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.cache.IncompleteFlushException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.FullDisk;

/** A writer whose writes fail (a full disk): what flush and close then do, and what is left. */
class FailedWritesTest {

    private static final Path FILE = Path.of("full.h5");
    private static final int SIDE = 24;

    /** Two unlimited dimensions: chunks indexed by a version-2 B-tree. */
    private static DatasetSpec grid() {
        return DatasetSpec.builder(Datatype.INT32, 0, 0)
                .maxShape(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED).chunkShape(2, 2).build();
    }

    private static int[] values(int rows, int salt) {
        int[] values = new int[rows * SIDE];
        Arrays.setAll(values, i -> i * 7 + salt);
        return values;
    }

    /**
     * Flushes 8 rows, then writes 16 more (new B-tree records and nodes) and fills the disk after {@code budget} more bytes; returns the file.
     */
    private static Hdf5File firstFlushThenMoreRows(FullDisk disk, long budget) throws IOException {
        Hdf5File file = Hdf5File.create(FILE, disk);
        Dataset d = file.root().createDataset("grid", grid());
        d.extend(8, SIDE);
        d.write(new long[] {0, 0}, new long[] {8, SIDE}, values(8, 1));
        file.flush();
        d.extend(SIDE, SIDE);
        d.write(new long[] {8, 0}, new long[] {SIDE - 8, SIDE}, values(SIDE - 8, 2));
        disk.fillAfter(budget);
        return file;
    }

    @Test
    void aFlushThatFailsInPlaceLeavesItsJournalForRecoverWhateverCloseDoes() throws IOException {
        int incomplete = 0;
        for (long budget = 0; ; budget += 97) {
            CrashSimulator simulator = new CrashSimulator();
            FullDisk disk = new FullDisk(simulator);
            Hdf5File file = firstFlushThenMoreRows(disk, budget);
            boolean flushed;
            try {
                file.flush();
                flushed = true;
            } catch (IOException e) {
                flushed = false;
                if (e instanceof IncompleteFlushException) {
                    incomplete++;
                    IncompleteFlushException again = assertThrows(
                            IncompleteFlushException.class, file::flush);
                    assertEquals(Hdf5File.journalPath(FILE), again.journal());
                }
            }
            try {
                file.close();
            } catch (IOException e) {
                // the disk is still full, or the file must be recovered: both leave the journal
            }
            Map<Path, byte[]> left = simulator.processCrash(simulator.eventCount());
            CrashSimulator after = new CrashSimulator(left);
            Hdf5File.recover(FILE, after);
            try (Hdf5File read = Hdf5File.open(FILE, after)) {
                Dataset d = read.root().dataset("grid");
                long rows = d.shape()[0];
                assertTrue(rows == 8 || rows == SIDE, "budget " + budget + ": " + rows);
                assertArrayEquals(values(8, 1),
                        d.readInts(new long[] {0, 0}, new long[] {8, SIDE}), "budget " + budget);
                if (rows == SIDE) {
                    assertArrayEquals(values(SIDE - 8, 2), d.readInts(new long[] {8, 0},
                            new long[] {SIDE - 8, SIDE}), "budget " + budget);
                }
            }
            if (flushed) {
                break;
            }
        }
        assertTrue(incomplete >= 3, "flushes failing in place: " + incomplete);
    }

    @Test
    void aFailedChunkWriteDoesNotBlockLaterFlushesOnceSpaceIsBack() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        FullDisk disk = new FullDisk(simulator);
        try (Hdf5File file = Hdf5File.create(FILE, disk)) {
            Dataset d = file.root().createDataset("grid", grid());
            d.extend(8, SIDE);
            d.write(new long[] {0, 0}, new long[] {4, SIDE}, values(4, 1));
            file.flush();
            disk.fillAfter(0);
            assertThrows(IOException.class, () -> d.write(new long[] {4, 0},
                    new long[] {4, SIDE}, values(4, 2)));
            disk.free();
            file.flush();
            d.write(new long[] {4, 0}, new long[] {4, SIDE}, values(4, 3));
            file.flush();
        }
        try (Hdf5File read = Hdf5File.open(FILE, simulator)) {
            Dataset d = read.root().dataset("grid");
            assertArrayEquals(values(4, 1), d.readInts(new long[] {0, 0}, new long[] {4, SIDE}));
            assertArrayEquals(values(4, 3), d.readInts(new long[] {4, 0}, new long[] {4, SIDE}));
        }
    }
}
