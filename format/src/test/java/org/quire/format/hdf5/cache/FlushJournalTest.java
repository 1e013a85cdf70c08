package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The flush journal's records: a committed journal gives its blocks back in order; an empty,
 * cut, bit-flipped or uncommitted one gives nothing (its flush never began in place).
 */
class FlushJournalTest {

    private static final List<FlushJournal.Block> BLOCKS = List.of(
            new FlushJournal.Block(4096, new byte[] {1, 2, 3}),
            new FlushJournal.Block(48, new byte[200]),
            new FlushJournal.Block(0, new byte[] {9}));

    private static Storage newJournal() throws IOException {
        return new CrashSimulator().open(Path.of("file.h5.qjnl"), OpenMode.CREATE_NEW);
    }

    private static Storage committed() throws IOException {
        Storage storage = newJournal();
        new FlushJournal(storage).commit(BLOCKS, true);
        return storage;
    }

    private static byte[] bytes(Storage storage) throws IOException {
        ByteBuffer all = ByteBuffer.allocate((int) storage.size());
        storage.readFully(all, 0);
        return all.array();
    }

    private static Storage holding(byte[] bytes) throws IOException {
        Storage storage = newJournal();
        storage.write(ByteBuffer.wrap(bytes), 0);
        return storage;
    }

    @Test
    void aCommittedJournalGivesItsBlocksInOrder() throws IOException {
        List<FlushJournal.Block> read = FlushJournal.committedBlocks(committed());
        assertEquals(BLOCKS.size(), read.size());
        for (int i = 0; i < BLOCKS.size(); i++) {
            assertEquals(BLOCKS.get(i).address(), read.get(i).address());
            assertArrayEquals(BLOCKS.get(i).image(), read.get(i).image());
        }
    }

    @Test
    void aClearedJournalHoldsNothing() throws IOException {
        Storage storage = committed();
        new FlushJournal(storage).clear();
        assertEquals(0, storage.size());
        assertTrue(FlushJournal.committedBlocks(storage).isEmpty());
    }

    @Test
    void everyCutOfAJournalIsUncommitted() throws IOException {
        byte[] whole = bytes(committed());
        for (int length = 0; length < whole.length; length++) {
            assertTrue(FlushJournal.committedBlocks(holding(java.util.Arrays.copyOf(whole,
                    length))).isEmpty(), "cut at " + length);
        }
    }

    @Test
    void everyFlippedByteMakesTheJournalUncommitted() throws IOException {
        byte[] whole = bytes(committed());
        for (int at = 0; at < whole.length; at++) {
            byte[] damaged = whole.clone();
            damaged[at] ^= 0x10;
            assertTrue(FlushJournal.committedBlocks(holding(damaged)).isEmpty(), "byte " + at);
        }
    }
}
