package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.storage.CrashSimulator;

/** The flush journal's life beside a file, and {@link Hdf5File#recover} of what a writer left. */
class Hdf5RecoveryTest {

    private static final Path FILE = Path.of("run.h5");

    @TempDir
    Path dir;

    private static DatasetSpec appendable() {
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
    void recoveringAClosedFileChangesNothing() throws IOException {
        Path path = dir.resolve("closed.h5");
        try (Hdf5File file = Hdf5File.create(path,
                WriteOptions.DEFAULT.withDurability(WriteOptions.Durability.EVERY_FLUSH))) {
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
