package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The flush journal's records: a committed journal gives its blocks back in order; an empty,
 * cut, never written or uncommitted one gives nothing (its flush never began in place); a file
 * that is not a journal, an unknown version and a committed journal with a damaged record are
 * typed errors; a journal is replayed only into the file it belongs to.
 */
class FlushJournalTest {

    private static final Path FILE = Path.of("file.h5");
    private static final Path JOURNAL = Path.of("file.h5.qjnl");
    private static final List<FlushJournal.Block> BLOCKS = List.of(
            new FlushJournal.Block(4096, new byte[] {1, 2, 3}),
            new FlushJournal.Block(48, new byte[200]),
            new FlushJournal.Block(0, new byte[] {9, 9}));
    /** What the file held where the last block goes before the flush. */
    private static final FlushJournal.Block PREVIOUS = new FlushJournal.Block(0,
            new byte[] {5, 5});

    private static Storage newJournal() throws IOException {
        return new CrashSimulator().open(JOURNAL, OpenMode.CREATE_NEW);
    }

    private static Storage committed() throws IOException {
        Storage storage = newJournal();
        new FlushJournal(storage).commit(PREVIOUS, BLOCKS, true);
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

    /** A file of {@code size} bytes starting with {@code start}. */
    private static Storage file(byte[] start, int size) throws IOException {
        Storage storage = new CrashSimulator().open(FILE, OpenMode.CREATE_NEW);
        byte[] bytes = Arrays.copyOf(start, size);
        storage.write(ByteBuffer.wrap(bytes), 0);
        return storage;
    }

    @Test
    void aCommittedJournalGivesItsBlocksInOrder() throws IOException {
        FlushJournal.Flush read = FlushJournal.committed(committed());
        assertEquals(BLOCKS.size(), read.blocks().size());
        for (int i = 0; i < BLOCKS.size(); i++) {
            assertEquals(BLOCKS.get(i).address(), read.blocks().get(i).address());
            assertArrayEquals(BLOCKS.get(i).image(), read.blocks().get(i).image());
        }
        assertArrayEquals(PREVIOUS.image(), read.previous().image());
    }

    @Test
    void aClearedJournalHoldsNothing() throws IOException {
        Storage storage = committed();
        new FlushJournal(storage).clear(true);
        assertEquals(0, storage.size());
        assertNull(FlushJournal.committed(storage));
    }

    @Test
    void everyCutOfAJournalIsUncommitted() throws IOException {
        byte[] whole = bytes(committed());
        for (int length = 0; length < whole.length; length++) {
            assertNull(FlushJournal.committed(holding(Arrays.copyOf(whole, length))),
                    "cut at " + length);
        }
    }

    @Test
    void aJournalWhoseFirstSectorNeverReachedDiskIsUncommitted() throws IOException {
        byte[] whole = bytes(committed());
        Arrays.fill(whole, 0, Math.min(512, whole.length), (byte) 0);
        assertNull(FlushJournal.committed(holding(whole)));
    }

    @Test
    void everyFlippedByteIsUncommittedButTheSignatureAndVersionAreErrors() throws IOException {
        byte[] whole = bytes(committed());
        for (int at = 0; at < whole.length; at++) {
            byte[] damaged = whole.clone();
            damaged[at] ^= 0x10;
            Storage journal = holding(damaged);
            if (at < 4) {
                CorruptFileException error = assertThrows(CorruptFileException.class,
                        () -> FlushJournal.committed(journal));
                assertTrue(error.getMessage().contains(JOURNAL.toString()), error.getMessage());
                assertEquals(0, error.offset());
            } else if (at == 4) {
                UnsupportedFormatException error = assertThrows(
                        UnsupportedFormatException.class, () -> FlushJournal.committed(journal));
                assertEquals(4, error.offset());
            } else {
                assertNull(FlushJournal.committed(journal), "byte " + at);
            }
        }
    }

    @Test
    void aDamagedRecordUnderAValidCommitIsCorrupt() throws IOException {
        byte[] whole = bytes(committed());
        int secondBlock = FlushJournalLayout.HEADER_SIZE
                + FlushJournalLayout.recordSize(PREVIOUS.image())
                + FlushJournalLayout.recordSize(BLOCKS.get(0).image());
        whole[secondBlock + FlushJournalLayout.BLOCK_HEADER_SIZE + 7] ^= 1;
        CRC32C crc = new CRC32C();
        crc.update(whole, 0, whole.length - 4);
        ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN).putInt(whole.length - 4,
                (int) crc.getValue());
        CorruptFileException error = assertThrows(CorruptFileException.class,
                () -> FlushJournal.committed(holding(whole)));
        assertEquals(secondBlock, error.offset());
        assertEquals("CRC32C", error.field());
    }

    @Test
    void aJournalIsReplayedOnlyIntoItsFile() throws IOException {
        assertEquals(BLOCKS.size(), FlushJournal.blocksToReplay(committed(),
                file(PREVIOUS.image(), 8192)).size(), "the flush had not reached its last block");
        assertEquals(BLOCKS.size(), FlushJournal.blocksToReplay(committed(),
                file(BLOCKS.get(2).image(), 8192)).size(), "it had");
        ForeignJournalException other = assertThrows(ForeignJournalException.class,
                () -> FlushJournal.blocksToReplay(committed(), file(new byte[] {7, 7}, 8192)));
        assertTrue(other.getMessage().contains(FILE.toString())
                && other.getMessage().contains(JOURNAL.toString()), other.getMessage());
        assertEquals(JOURNAL, other.journal());
        assertThrows(ForeignJournalException.class, () -> FlushJournal.blocksToReplay(
                committed(), file(PREVIOUS.image(), 4096)), "a block past the end");
        assertTrue(FlushJournal.blocksToReplay(newJournal(), file(new byte[0], 10)).isEmpty());
    }

    /** The block at 4096 of 3 bytes may end exactly at the file's end, not one byte beyond. */
    @Test
    void aBlockEndingAtTheFilesEndIsReplayed() throws IOException {
        assertEquals(BLOCKS.size(), FlushJournal.blocksToReplay(committed(),
                file(PREVIOUS.image(), 4099)).size());
        ForeignJournalException beyond = assertThrows(ForeignJournalException.class,
                () -> FlushJournal.blocksToReplay(committed(), file(PREVIOUS.image(), 4098)));
        assertTrue(beyond.getMessage().contains("a block of 3 bytes at 4096 lies past the file's"
                + " end 4098"), beyond.getMessage());
    }

    /** A journal left longer by a flush that never cleared it is replaced whole by the next. */
    @Test
    void aCommitReplacesALongerJournal() throws IOException {
        Storage storage = committed();
        List<FlushJournal.Block> small = List.of(new FlushJournal.Block(0, new byte[] {4, 4}));
        new FlushJournal(storage).commit(PREVIOUS, small, false);
        Storage alone = newJournal();
        new FlushJournal(alone).commit(PREVIOUS, small, false);
        assertArrayEquals(bytes(alone), bytes(storage));
        assertArrayEquals(new byte[] {4, 4}, FlushJournal.committed(storage).blocks().get(0)
                .image());
    }

    @Test
    void aJournalOfAnotherSignatureIsCorruptShowingItsBytes() throws IOException {
        byte[] whole = bytes(committed());
        whole[0] = 'X';
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> FlushJournal.committed(holding(whole)));
        assertEquals("signature", e.field());
        assertEquals(String.format("%02x%02x%02x%02x", whole[0], whole[1], whole[2], whole[3]),
                e.found());
    }
}
