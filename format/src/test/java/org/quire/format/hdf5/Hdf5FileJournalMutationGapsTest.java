package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.WrongFormatException;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.hdf5.cache.AbandonedChangesException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.TrackingOpener;

/**
 * The flush journal ({@code <name>.qjnl}) a writer opens beside its file, at the crash points
 * between opening it and its first commit, and the first flush {@link Hdf5File#create} makes:
 * what a killed writer leaves for {@link Hdf5File#recover}, on a {@link CrashSimulator}.
 */
class Hdf5FileJournalMutationGapsTest {

    private static final Path FILE = Path.of("run.h5");
    private static final Path JOURNAL = Hdf5File.journalPath(FILE);

    @TempDir
    Path dir;

    /**
     * A journal left beside a file by an earlier writer of that name, here beside a file in
     * libhdf5's default format (superblock 0) put in the name's place. A writer that reopens
     * the file empties the journal before it writes its guard (the superblock's end of file
     * address 2^63-1, forced), so when it is killed right after the guard, {@link
     * Hdf5File#recover} replays nothing and gives the file back byte for byte.
     */
    @Test
    void aWriterReopeningAnOldFormatFileEmptiesAStaleJournalBeforeItsGuard()
            throws IOException {
        byte[] compat = Files.readAllBytes(
                H5pyFixtures.of(H5pyFixtures.COMPAT).file("compat.h5"));
        Map<Path, byte[]> left = new TreeMap<>(
                KilledWriters.afterCommittingTheSecondFlush(FILE).files());
        left.put(FILE, compat);
        CrashSimulator simulator = new CrashSimulator(left);
        Hdf5File.openForWriting(FILE, simulator, WriteOptions.DEFAULT).close();
        Map<Path, byte[]> killed = simulator.processCrash(simulator.firstEvent(0,
                CrashSimulator.Force.class, FILE) + 1);
        assertArrayEquals(new byte[0], killed.get(JOURNAL), "the stale journal emptied");
        CrashSimulator disk = new CrashSimulator(killed);
        Recovery recovery = Hdf5File.recover(FILE, disk);
        assertEquals(0, recovery.journalBlocksReplayed());
        assertArrayEquals(compat, disk.files().get(FILE));
    }

    /**
     * A journal left beside a name whose file was removed belongs to that old file: a writer
     * creating a new file there empties it before anything else, so a writer killed before its
     * first commit leaves a file {@link Hdf5File#recover} calls what it is (not an HDF5 file
     * yet), not one whose journal is another file's.
     */
    @Test
    void aWriterCreatingAFileBesideAStaleJournalEmptiesItBeforeItsFirstCommit()
            throws IOException {
        Map<Path, byte[]> left = new TreeMap<>(
                KilledWriters.afterCommittingTheSecondFlush(FILE).files());
        left.remove(FILE);
        CrashSimulator simulator = new CrashSimulator(left);
        Hdf5File.create(FILE, simulator).close();
        // Killed after the first write to the new file, before the journal's first commit.
        Map<Path, byte[]> killed = simulator.processCrash(simulator.firstEvent(0,
                CrashSimulator.Write.class, FILE) + 1);
        assertArrayEquals(new byte[0], killed.get(JOURNAL), "the stale journal emptied");
        WrongFormatException e = assertThrows(WrongFormatException.class,
                () -> Hdf5File.recover(FILE, new CrashSimulator(killed)));
        assertTrue(e.getMessage().startsWith("run.h5: not an HDF5 file: it starts with 00 00 00 00"),
                e.getMessage());
    }

    /**
     * {@link Hdf5File#create} returns a file flushed once: a writer killed right after it
     * leaves a file with an empty root group that recovers (flags 0x01 cleared, nothing to
     * replay) and opens.
     */
    @Test
    void aWriterKilledRightAfterCreateLeavesAnEmptyFileThatRecovers() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        Map<Path, byte[]> killed;
        try (Hdf5File file = Hdf5File.create(FILE, simulator)) {
            killed = simulator.processCrash(simulator.eventCount());
        }
        CrashSimulator disk = new CrashSimulator(killed);
        Recovery recovery = Hdf5File.recover(FILE, disk);
        assertEquals(new Recovery(SuperblockV3.FLAG_OPEN_FOR_WRITE, killed.get(FILE).length,
                killed.get(FILE).length, 0), recovery);
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            assertEquals(List.of(), file.root().memberNames());
        }
    }

    /**
     * {@link Hdf5File#close} releases every file it opened, the journal too: removed after the
     * closing flush, kept for {@link Hdf5File#recover} when the changes were abandoned (and the
     * close refused to write).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void closeReleasesTheJournalAndKeepsItOnlyWhenItWroteNothing(boolean abandoned)
            throws IOException {
        TrackingOpener opener = new TrackingOpener();
        Path path = dir.resolve("tracked.h5");
        Hdf5File file = Hdf5File.create(path, opener);
        file.root().createGroup("g");
        if (abandoned) {
            file.abandonChanges("adding group g", new IOException("disk gone"));
            assertThrows(AbandonedChangesException.class, file::close);
        } else {
            file.close();
        }
        assertEquals(List.of(), opener.stillOpen());
        assertEquals(abandoned, Files.exists(Hdf5File.journalPath(path)));
    }
}
