package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ContinuationMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * How a version-2 object header Quire writes grows and changes, read back chunk by chunk: a
 * message filling the room left exactly stays in its chunk, each new continuation block has
 * the room of all chunks before it up to {@link WritableObjectHeader#MAX_GROWTH_ROOM}, a reopened
 * header reuses the room kept at the start of its last block, removed messages become null
 * messages of their size, and what a change touches is dirty (and only that).
 */
class WritableObjectHeaderMutationGapsTest {

    private static final int TYPE = 0x0C;
    /** Stored size of the continuation message (header and body) each last chunk keeps room for. */
    private static final int CONTINUATION = ObjectHeaderV2.CONTINUATION_STORED_SIZE;

    @TempDir
    Path dir;

    private Storage storage;

    private BlockFile open() throws Exception {
        storage = FileStorage.open(dir.resolve("header.h5"), OpenMode.CREATE_OR_OPEN);
        return new BlockFile(storage);
    }

    private MetadataCache newCache() {
        return new MetadataCache(storage, 1 << 24, Durability.NONE);
    }

    /** A message of {@code stored} bytes with its header, each body byte {@code fill}. */
    private static HeaderMessage message(int stored, int fill) {
        byte[] body = new byte[stored - ObjectHeaderV2.MESSAGE_HEADER_SIZE];
        java.util.Arrays.fill(body, (byte) fill);
        return HeaderMessage.of(TYPE, 0, body);
    }

    /** A new header (no initial messages, no spare bytes) given {@code messages}, flushed. */
    private static WritableObjectHeader written(BlockFile file, MetadataCache cache,
                                                HeaderMessage... messages) throws Exception {
        WritableObjectHeader header = new WritableObjectHeader(file, cache, List.of(), 0);
        for (HeaderMessage message : messages) {
            header.add(message);
        }
        cache.flush();
        return header;
    }

    /**
     * Chunk 0 of {@code messages} padded to {@code capacity} message bytes, written into the
     * file as another writer (libhdf5) leaves it; its address.
     */
    private static long writtenChunkZero(BlockFile file, List<HeaderMessage> messages,
                                         int capacity) throws Exception {
        byte[] chunk = ObjectHeaderV2.encodeChunkZero(messages, capacity);
        long address = file.allocate(chunk.length);
        file.write(address, chunk);
        return address;
    }

    /** The address of the header's second chunk (the block chunk 0 continues in). */
    private static long secondChunk(BlockFile file, long address) throws Exception {
        return ObjectHeaderV2.readChunks(file, address).chunks().get(1).address();
    }

    private static List<Integer> capacities(BlockFile file, long address) throws Exception {
        List<Integer> capacities = new ArrayList<>();
        for (ObjectHeaderV2.StoredChunk chunk : ObjectHeaderV2.readChunks(file, address).chunks()) {
            capacities.add(chunk.capacity());
        }
        return capacities;
    }

    private static List<Integer> firstBodyBytes(BlockFile file, long address) throws Exception {
        List<Integer> firsts = new ArrayList<>();
        for (HeaderMessage message : ObjectHeaderV2.read(file, address)) {
            firsts.add(message.body().length == 0 ? -1 : (int) message.body()[0]);
        }
        return firsts;
    }

    /**
     * Chunk 0 of 40 spare bytes takes a 40-byte message; the next one opens a block of the
     * message, a continuation message and 256 bytes of room (more than the 60 of chunk 0); that
     * block, whose continuation room is kept at its start, takes a message filling it exactly;
     * the next block has the room of both chunks before it, and its continuation message goes
     * into the room at the start of the block before.
     */
    @Test
    void messagesFillingTheRoomExactlyStayAndEachNewBlockHasTheRoomOfTheChunksBefore()
            throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = new WritableObjectHeader(file, cache, List.of(), 40);
            header.add(message(40, 1));
            cache.flush();
            assertEquals(List.of(CONTINUATION + 40), capacities(file, header.address()));
            header.add(message(4, 2));
            header.add(message(256, 3));
            cache.flush();
            int second = 4 + CONTINUATION + 256;
            assertEquals(List.of(CONTINUATION + 40, second), capacities(file, header.address()));
            header.add(message(4, 4));
            cache.flush();
            assertEquals(List.of(CONTINUATION + 40, second, CONTINUATION + 40 + second),
                    capacities(file, header.address()));
            List<ObjectHeaderV2.StoredChunk> chunks =
                    ObjectHeaderV2.readChunks(file, header.address()).chunks();
            assertEquals(ContinuationMessage.TYPE, chunks.get(1).messages().get(0).type());
            assertEquals(List.of(1, -1, 3, -1), firstBodyBytes(file, header.address()));
            for (int i = 1; i < chunks.size(); i++) {
                assertTrue(cache.dependsOn(chunks.get(i - 1).address(), chunks.get(i).address()),
                        "chunk " + (i - 1) + " is written after the block it points at");
            }
        }
    }

    /**
     * Grown by the largest messages a header holds (65,535 body bytes; one more is refused),
     * the room of each new block doubles until it reaches 1 MiB, the most growth gives.
     */
    @Test
    void growthStopsAtOneMebibyteAndABodyHoldsAtMost65535Bytes() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = new WritableObjectHeader(file, cache, List.of(), 0);
            assertEquals("a header message holds at most 65535 bytes; this one needs 65536",
                    assertThrows(IllegalArgumentException.class, () -> header.add(
                            HeaderMessage.of(TYPE, 0, new byte[65536]))).getMessage());
            for (int i = 0; i < 17; i++) {
                header.add(HeaderMessage.of(TYPE, 0, new byte[65535]));
            }
            cache.flush();
            int first = 65539 + CONTINUATION + 256;
            assertEquals(List.of(CONTINUATION, first, CONTINUATION + first,
                            2 * (CONTINUATION + first), 4 * (CONTINUATION + first),
                            8 * (CONTINUATION + first), WritableObjectHeader.MAX_GROWTH_ROOM),
                    capacities(file, header.address()));
            assertEquals(17, ObjectHeaderV2.read(file, header.address()).size());
        }
    }

    /**
     * A header Quire wrote, reopened: the null message at the start of its last block is the
     * room for the next continuation message, so a message filling that block exactly stays
     * there and the messages already in it do not move.
     */
    @Test
    void aReopenedHeaderUsesTheRoomKeptAtTheStartOfItsLastBlock() throws Exception {
        try (BlockFile file = open()) {
            long address = written(file, newCache(), message(5, 1)).address();
            int second = 5 + CONTINUATION + 256;
            assertEquals(List.of(CONTINUATION, second), capacities(file, address));
            long block = secondChunk(file, address);

            MetadataCache cache = newCache();
            WritableObjectHeader header = WritableObjectHeader.open(file, cache, address);
            assertTrue(cache.dependsOn(address, block));
            header.add(message(256, 2));
            cache.flush();
            assertEquals(List.of(CONTINUATION, second), capacities(file, address));
            header.add(message(5, 3));
            cache.flush();
            List<ObjectHeaderV2.StoredChunk> chunks =
                    ObjectHeaderV2.readChunks(file, address).chunks();
            assertEquals(3, chunks.size());
            assertEquals(block, chunks.get(1).address());
            assertEquals(List.of(ContinuationMessage.TYPE, TYPE, TYPE),
                    chunks.get(1).messages().stream().map(HeaderMessage::type).toList());
            assertEquals(List.of(1, 2, 3), firstBodyBytes(file, address));
        }
    }

    /**
     * A removed message becomes a null message of its size in the block holding it (here a
     * continuation block, written again at the next flush); reopened, its room takes a new
     * message of that size without a new block.
     */
    @Test
    void aRemovedMessageIsGoneAtTheNextFlushAndItsRoomIsReused() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = written(file, cache, message(20, 1), message(20, 2));
            long address = header.address();
            long block = secondChunk(file, address);
            header.remove(0);
            assertTrue(cache.isDirty(block));
            assertFalse(cache.isDirty(address));
            cache.flush();
            assertEquals(List.of(2), firstBodyBytes(file, address));
            assertEquals(2, header.messages().size());
            assertEquals(ObjectHeaderV2.NULL_MESSAGE, header.messages().get(0).type());
            assertEquals(16, header.messages().get(0).body().length);
            List<Integer> before = capacities(file, address);

            MetadataCache reopened = newCache();
            WritableObjectHeader again = WritableObjectHeader.open(file, reopened, address);
            for (int i = 0; i < 12; i++) {
                again.add(message(20, 3 + i));
            }
            reopened.flush();
            assertEquals(before, capacities(file, address));
            assertEquals(13, ObjectHeaderV2.read(file, address).size());
        }
    }

    /**
     * A body replaced by the same bytes leaves its chunk clean (nothing to write); another body
     * dirties the block holding it, not chunk 0.
     */
    @Test
    void replacingMarksDirtyOnlyTheBlockHoldingAChangedBody() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = written(file, cache, message(8, 1));
            long address = header.address();
            long block = secondChunk(file, address);
            header.replace(0, new byte[] {1, 1, 1, 1});
            assertFalse(cache.isDirty(block));
            header.replace(0, new byte[] {9, 9, 9, 9});
            assertTrue(cache.isDirty(block));
            assertFalse(cache.isDirty(address));
            assertEquals("message of type 12 changed length from 4 to 5", assertThrows(
                    IllegalStateException.class, () -> header.replace(0, new byte[5]))
                    .getMessage());
            cache.flush();
            assertArrayEquals(new byte[] {9, 9, 9, 9},
                    ObjectHeaderV2.read(file, address).get(0).body());
        }
    }

    /**
     * A message pointing at other cache entries (an attribute's global heap collections) makes
     * the chunk holding it wait for them, and the block it moves to when a full chunk 0 (as
     * libhdf5 leaves it) makes room for a continuation message.
     */
    @Test
    void theChunkHoldingAMessageDependsOnWhatItPointsAtAlsoAfterItMoves() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            long child = file.allocate(8);
            cache.insert(BlockEntry.metadata(child, 8, new byte[8], bytes -> bytes));
            long address = writtenChunkZero(file, List.of(message(CONTINUATION, 1)),
                    CONTINUATION);
            WritableObjectHeader header = WritableObjectHeader.open(file, cache, address);
            header.dependOn(0, List.of(child));
            assertTrue(cache.dependsOn(address, child));
            header.add(message(5, 2));
            cache.flush();
            assertTrue(cache.dependsOn(secondChunk(file, address), child));
            assertEquals(List.of(1, 2), firstBodyBytes(file, address));
        }
    }

    /**
     * A chunk 0 too small for a continuation message even when empty cannot grow: refused,
     * naming the chunk.
     */
    @Test
    void aChunkTooSmallForAContinuationMessageIsRefused() throws Exception {
        try (BlockFile file = open()) {
            long address = writtenChunkZero(file, List.of(message(8, 1)), 8);
            WritableObjectHeader header = WritableObjectHeader.open(file, newCache(), address);
            assertEquals("object header chunk at " + address + " holds only continuation "
                    + "messages and has no room for another", assertThrows(
                    IllegalStateException.class, () -> header.add(message(4, 2))).getMessage());
        }
    }

    /**
     * Chunk 0 has room for the initial messages, the spare bytes and one continuation message,
     * no more; add's handles count the messages in order.
     */
    @Test
    void chunkZeroHoldsTheInitialMessagesAndTheSpareBytesExactly() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = new WritableObjectHeader(file, cache,
                    List.of(message(12, 1), message(30, 2)), 8);
            assertEquals(2, header.add(message(8, 3)));
            header.replace(2, new byte[] {7, 7, 7, 7});
            cache.flush();
            assertEquals(List.of(12 + 30 + 8 + CONTINUATION), capacities(file, header.address()));
            assertEquals(List.of(1, 2, 7), firstBodyBytes(file, header.address()));
        }
    }

    /**
     * A full chunk 0 (as libhdf5 leaves one) whose last message is larger than all its room:
     * the message moves to a new block sized for it, the continuation message and 256 bytes.
     */
    @Test
    void aMessageMovedOutOfAFullChunkGetsABlockSizedForIt() throws Exception {
        try (BlockFile file = open()) {
            long address = writtenChunkZero(file, List.of(message(300, 1)), 300);
            MetadataCache cache = newCache();
            WritableObjectHeader header = WritableObjectHeader.open(file, cache, address);
            header.add(message(5, 2));
            cache.flush();
            assertEquals(List.of(300, 5 + CONTINUATION + 256 + 300), capacities(file, address));
            assertEquals(List.of(1, 2), firstBodyBytes(file, address));
        }
    }

    /**
     * libhdf5's version-1 header (h5py's default format, committed legacy.h5) changes in place
     * only: growing, reserving and removing are refused naming the header, a body of the same
     * length is written back in place (the root's "title" attribute here).
     */
    @Test
    void aVersion1HeaderChangesInPlaceOnly() throws Exception {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        long root;
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            root = hdf5.root().address();
        }
        storage = FileStorage.open(path, OpenMode.READ_WRITE);
        try (BlockFile file = new BlockFile(storage)) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = WritableObjectHeader.openVersion1(file, cache, root);
            assertTrue(header.isVersion1());
            String refused = path + ": cannot %s the version-1 object header at " + root
                    + ": Quire changes version-1 headers in place only (same-size message "
                    + "bodies)";
            assertEquals(String.format(refused, "add a message of type 12 to"), assertThrows(
                    UnsupportedOperationException.class, () -> header.add(message(8, 1)))
                    .getMessage());
            assertEquals(String.format(refused, "reserve room in"), assertThrows(
                    UnsupportedOperationException.class, () -> header.reserve(8)).getMessage());
            int title = header.handleOf(TYPE);
            assertEquals(String.format(refused, "remove a message of type 12 from"),
                    assertThrows(UnsupportedOperationException.class,
                            () -> header.remove(title)).getMessage());
            assertEquals("object header chunk at " + root + " is open twice", assertThrows(
                    IllegalStateException.class, () -> WritableObjectHeader.openVersion1(file,
                            cache, root)).getMessage());
            byte[] body = header.messages().get(title).body().clone();
            byte[] old = "legacy run".getBytes(StandardCharsets.US_ASCII);
            int at = DamagedField.indexOf(body, old, 0);
            System.arraycopy("LEGACY RUN".getBytes(StandardCharsets.US_ASCII), 0, body, at,
                    old.length);
            header.replace(title, body);
            cache.flush();
        }
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            assertEquals("LEGACY RUN", hdf5.root().attribute("title").string());
        }
    }

    /** The same header opened twice into one cache is a programming error, named by address. */
    @Test
    void aHeaderOpenedTwiceIntoOneCacheIsRefused() throws Exception {
        try (BlockFile file = open()) {
            MetadataCache cache = newCache();
            WritableObjectHeader header = written(file, cache);
            assertEquals("object header chunk at " + header.address() + " is open twice",
                    assertThrows(IllegalStateException.class, () -> WritableObjectHeader.open(
                            file, cache, header.address())).getMessage());
        }
    }
}
