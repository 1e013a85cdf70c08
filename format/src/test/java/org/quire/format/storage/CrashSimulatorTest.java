package org.quire.format.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CrashSimulatorTest {

    private static final Path FILE = Path.of("/sim/data.bin");
    private static final Path OTHER = Path.of("/sim/other.bin");
    private static final int SEEDS = 300;

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    private static void write(Storage storage, long position, byte[] bytes) throws IOException {
        storage.write(ByteBuffer.wrap(bytes), position);
    }

    @Test
    void forcedBytesSurviveEveryCrash() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        byte[] forced = filled(1500, 7);
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            write(storage, 0, forced);
            storage.force(false);
            write(storage, 1500, filled(3000, 9));
            write(storage, 4000, filled(100, 10));
        }
        for (int point = 3; point <= simulator.eventCount(); point++) {
            for (long seed = 0; seed < SEEDS; seed++) {
                byte[] image = simulator.crash(point, seed).get(FILE);
                assertTrue(image.length >= forced.length, "crash point " + point + " seed " + seed);
                assertArrayEquals(forced, Arrays.copyOf(image, forced.length), "crash point " + point + " seed " + seed);
            }
        }
    }

    @Test
    void unforcedWritesAreSometimesKeptSometimesDroppedSometimesTornAtSectors() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        int sectors = 4;
        byte[] written = filled(sectors * CrashSimulator.SECTOR_SIZE, 5);
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            write(storage, 0, new byte[written.length]);
            storage.force(true);
            write(storage, 0, written);
        }
        boolean kept = false;
        boolean dropped = false;
        boolean torn = false;
        for (long seed = 0; seed < SEEDS; seed++) {
            byte[] image = simulator.crash(simulator.eventCount(), seed).get(FILE);
            assertEquals(written.length, image.length, "the size was forced");
            int newSectors = 0;
            for (int sector = 0; sector < sectors; sector++) {
                byte[] content = Arrays.copyOfRange(image, sector * CrashSimulator.SECTOR_SIZE,
                        (sector + 1) * CrashSimulator.SECTOR_SIZE);
                boolean isNew = Arrays.equals(content, filled(CrashSimulator.SECTOR_SIZE, 5));
                assertTrue(isNew || Arrays.equals(content, new byte[CrashSimulator.SECTOR_SIZE]),
                        "sector " + sector + " is all new or all old (seed " + seed + ")");
                newSectors += isNew ? 1 : 0;
            }
            kept |= newSectors == sectors;
            dropped |= newSectors == 0;
            torn |= newSectors > 0 && newSectors < sectors;
        }
        assertTrue(kept && dropped && torn, "kept " + kept + ", dropped " + dropped + ", torn " + torn);
    }

    @Test
    void aSectorNeverShowsAWriteWithoutTheEarlierWritesToIt() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            storage.force(true);
            write(storage, 0, filled(32, 1));
            write(storage, 32, filled(32, 2));
        }
        Set<String> outcomes = new HashSet<>();
        for (long seed = 0; seed < SEEDS; seed++) {
            byte[] image = Arrays.copyOf(simulator.crash(simulator.eventCount(), seed).get(FILE), 64);
            boolean first = image[0] == 1;
            boolean second = image[32] == 2;
            assertFalse(second && !first, "seed " + seed + " kept the second write without the first");
            outcomes.add(first + "/" + second);
        }
        assertEquals(Set.of("false/false", "true/false", "true/true"), outcomes);
    }

    @Test
    void theSameSeedGivesTheSameFilesAndOtherSeedsOtherFiles() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW);
             Storage other = simulator.open(OTHER, OpenMode.CREATE_NEW)) {
            for (int i = 0; i < 20; i++) {
                write(storage, i * 300L, filled(700, i + 1));
                write(other, i * 100L, filled(100, i + 1));
                if (i % 7 == 6) {
                    storage.force(false);
                }
            }
        }
        Set<String> distinct = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            Map<Path, byte[]> first = simulator.crash(simulator.eventCount() - 5, seed);
            Map<Path, byte[]> again = simulator.crash(simulator.eventCount() - 5, seed);
            assertEquals(first.keySet(), again.keySet());
            first.forEach((path, bytes) -> assertArrayEquals(bytes, again.get(path)));
            distinct.add(Arrays.toString(first.get(FILE)));
        }
        assertTrue(distinct.size() > 5, "20 seeds gave only " + distinct.size() + " different files");
    }

    @Test
    void aProcessCrashKeepsEveryWriteUpToItsPoint() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            write(storage, 0, filled(10, 1));
            write(storage, 5, filled(10, 2));
            storage.truncate(12);
        }
        assertArrayEquals(new byte[0], simulator.processCrash(1).get(FILE));
        assertArrayEquals(filled(10, 1), simulator.processCrash(2).get(FILE));
        byte[] expected = new byte[12];
        Arrays.fill(expected, 0, 5, (byte) 1);
        Arrays.fill(expected, 5, 12, (byte) 2);
        assertArrayEquals(expected, simulator.processCrash(4).get(FILE));
        assertArrayEquals(expected, simulator.files().get(FILE));
        assertNull(simulator.processCrash(0).get(FILE), "not yet created");
    }

    @Test
    void aFileNeverForcedMayBeMissingAndADeletedFileIsGone() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            write(storage, 0, filled(10, 1));
        }
        Set<Boolean> present = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            present.add(simulator.crash(simulator.eventCount(), seed).containsKey(FILE));
        }
        assertEquals(Set.of(true, false), present);
        assertTrue(simulator.deleteIfExists(FILE));
        assertFalse(simulator.deleteIfExists(FILE));
        assertFalse(simulator.crash(simulator.eventCount(), 1).containsKey(FILE));
        assertThrows(NoSuchFileException.class, () -> simulator.open(FILE, OpenMode.READ));
    }

    @Test
    void truncationsAreKeptOrDroppedLikeWrites() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Storage storage = simulator.open(FILE, OpenMode.CREATE_NEW)) {
            write(storage, 0, filled(2000, 3));
            storage.force(true);
            storage.truncate(100);
        }
        Set<Integer> sizes = new HashSet<>();
        for (long seed = 0; seed < 100; seed++) {
            byte[] image = simulator.crash(simulator.eventCount(), seed).get(FILE);
            sizes.add(image.length);
            assertArrayEquals(filled(100, 3), Arrays.copyOf(image, 100), "bytes before the cut stay");
        }
        assertEquals(Set.of(100, 2000), sizes);
    }

    @Test
    void aSimulatorStartedFromCrashedFilesHoldsThemDurably() throws IOException {
        CrashSimulator simulator = new CrashSimulator(Map.of(FILE, filled(600, 4)));
        try (Storage storage = simulator.open(FILE, OpenMode.READ_WRITE)) {
            ByteBuffer read = ByteBuffer.allocate(600);
            assertTrue(storage.readFully(read, 0));
            assertArrayEquals(filled(600, 4), read.array());
            write(storage, 600, filled(600, 5));
        }
        for (long seed = 0; seed < 50; seed++) {
            byte[] image = simulator.crash(simulator.eventCount(), seed).get(FILE);
            assertArrayEquals(filled(600, 4), Arrays.copyOf(image, 600));
        }
        assertArrayEquals(filled(600, 4), simulator.crash(0, 3).get(FILE));
    }

    @Test
    void opensAsTheModeSays() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        assertThrows(NoSuchFileException.class, () -> simulator.open(FILE, OpenMode.READ_WRITE));
        simulator.open(FILE, OpenMode.CREATE_OR_OPEN).close();
        assertThrows(FileAlreadyExistsException.class, () -> simulator.open(FILE, OpenMode.CREATE_NEW));
        try (Storage reader = simulator.open(FILE, OpenMode.READ)) {
            assertThrows(java.nio.channels.NonWritableChannelException.class,
                    () -> write(reader, 0, new byte[1]));
            assertEquals(-1, reader.read(ByteBuffer.allocate(1), 0));
            try (StorageLock shared = reader.tryLock(0, Long.MAX_VALUE, true)) {
                assertTrue(shared.shared());
                try (Storage writer = simulator.open(FILE, OpenMode.READ_WRITE)) {
                    assertNull(writer.tryLock(0, Long.MAX_VALUE, false), "a shared lock is held");
                    assertNotEquals(null, writer.tryLock(0, Long.MAX_VALUE, true));
                }
            }
        }
        assertEquals(1, simulator.eventCount(), "only the creation is recorded: " + simulator.events());
    }

    @Test
    void locksRegionsAsFileStorageDoes() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        simulator.open(FILE, OpenMode.CREATE_OR_OPEN).close();
        long far = Long.MAX_VALUE - 2;
        try (Storage a = simulator.open(FILE, OpenMode.READ_WRITE);
             Storage b = simulator.open(FILE, OpenMode.READ)) {
            StorageLock writer = a.tryLock(far, 1, false);
            assertNotNull(writer);
            StorageLock reader = b.tryLock(far + 1, 1, true);
            assertNotNull(reader, "another byte");
            assertNull(b.tryLock(far, 1, true), "the exclusive byte");
            assertNotNull(a.tryLock(far + 1, 1, true), "shared beside shared");
            writer.close();
            assertNotNull(b.tryLock(far, 1, true), "released");
        }
        try (Storage c = simulator.open(FILE, OpenMode.READ_WRITE)) {
            assertNotNull(c.tryLock(far, 2, false), "closing released every lock");
        }
    }
}
