package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * {@link Hdf5File#close} of a file in libhdf5's default format (superblock 0) lifts Quire's
 * writing guard last: every block of the file forced first, then the true end of file
 * written and forced. Even with {@link Durability#NONE}, a power failure as the guard is
 * lifted leaves the file whole (refused until {@link Hdf5File#recover}, or open), and one
 * after close leaves it open to readers at once; on a {@link CrashSimulator}, several seeds.
 * The guard itself is forced as the file is opened for writing, before any change: a power
 * failure right after the open leaves a file libhdf5 and Quire refuse until recovered.
 */
class OldFormatCloseMutationGapsTest {

    private static final Path FILE = Path.of("old.h5");

    @Test
    void aPowerFailureAsOrAfterTheGuardIsLiftedLeavesTheFileWhole() throws IOException {
        CrashSimulator simulator = compatOnDisk();
        try (Hdf5File file = openWithoutForcing(simulator)) {
            file.root().createGroup("added");
        }
        List<CrashSimulator.Event> events = simulator.events();
        int lift = events.size() - 1;
        while (!(events.get(lift) instanceof CrashSimulator.Write write
                && write.path().equals(FILE))) {
            lift--;
        }
        for (long seed = 0; seed < 16; seed++) {
            CrashSimulator asLifted = new CrashSimulator(simulator.crash(lift + 1, seed));
            try {
                Hdf5File.open(FILE, asLifted).close();
            } catch (FileOpenForWritingException guardKept) {
                Hdf5File.recover(FILE, asLifted);
            }
            try (Hdf5File file = Hdf5File.open(FILE, asLifted)) {
                assertTrue(file.root().contains("added"), "seed " + seed);
            }
            CrashSimulator afterClose = new CrashSimulator(
                    simulator.crash(events.size(), seed));
            try (Hdf5File file = Hdf5File.open(FILE, afterClose)) {
                assertTrue(file.root().contains("added"), "seed " + seed);
            }
        }
    }

    @Test
    void aPowerFailureRightAfterOpeningForWritingLeavesTheGuardOnDisk() throws IOException {
        CrashSimulator simulator = compatOnDisk();
        try (Hdf5File file = openWithoutForcing(simulator)) {
            int opened = simulator.eventCount();
            for (long seed = 0; seed < 16; seed++) {
                CrashSimulator crashed = new CrashSimulator(simulator.crash(opened, seed));
                assertThrows(FileOpenForWritingException.class,
                        () -> Hdf5File.open(FILE, crashed).close(), "seed " + seed);
            }
        }
    }

    /** h5py's compat.h5 (superblock 0) as {@link #FILE} on a simulated disk. */
    private static CrashSimulator compatOnDisk() throws IOException {
        return new CrashSimulator(Map.of(FILE, Files.readAllBytes(
                H5pyFixtures.of(H5pyFixtures.COMPAT).file("compat.h5"))));
    }

    /** {@link #FILE} opened for writing with {@code Durability.NONE}: only the guard is forced. */
    private static Hdf5File openWithoutForcing(CrashSimulator simulator) throws IOException {
        return Hdf5File.openForWriting(FILE, simulator,
                WriteOptions.DEFAULT.withDurability(Durability.NONE));
    }
}
