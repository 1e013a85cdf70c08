package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.chunk.BTreeV1Indexes;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.FullDisk;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * A version-1 B-tree insertion that fails: libhdf5 (h5py, istore K 2: nodes of 4 children)
 * appends chunks 0, 2, ..., 38 of a 1-D dataset in chunks of 4 elements, so leaf 0 holds chunks
 * 0, 2 and 4; Quire inserts chunk 1 (leaf 0 full) and then chunk 3, which splits leaf 0 and
 * relinks its right sibling. A damaged sibling fails that insertion before anything changed; a
 * failure after the first change leaves an index that refuses every later call.
 */
@StartsOutsideProgram
class BTreeV1FailedInsertTest {

    private static final int K = 2;
    private static final long[] CHUNK = {4};
    private static final int ELEMENT_SIZE = 4;

    @TempDir
    Path dir;

    @BeforeAll
    static void oracle() {
        ExternalTools.requireH5py();
    }

    /** libhdf5's file; its tree's root and every chunk's record. */
    private record Libhdf5File(Path path, long root, Map<Long, ChunkRecord> chunks) {
        BTreeV1Node<BTreeV1ChunkKey> node(BlockFile blocks, long address) throws IOException {
            return BTreeV1Node.read(blocks, address, BTreeV1ChunkKey.format(1), K);
        }
    }

    private Libhdf5File evenChunks() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 40; i += 2) {
            order.add(Integer.toString(i));
        }
        Path orderFile = dir.resolve("even.order");
        Files.writeString(orderFile, String.join("\n", order));
        Path path = dir.resolve("even.h5");
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                ExternalTools.resource("btree_v1_chunks.py", dir).toString(), "write",
                path.toString(), dir.resolve("base.h5").toString(), Integer.toString(K), "160",
                "4", "-", orderFile.toString(), dir.resolve("even.chunks").toString()), 300);
        assertEquals(0, made.exitCode(), made.output());
        try (Hdf5File file = Hdf5File.open(path)) {
            ChunkIndex index = file.root().dataset("x").chunkIndex();
            assertEquals(K, file.ranks().chunkNodeK());
            Map<Long, ChunkRecord> chunks = new HashMap<>();
            for (long c = 0; c < 40; c++) {
                chunks.put(c, index.get(new long[] {c}));
            }
            return new Libhdf5File(path, index.address(), chunks);
        }
    }

    /** A chunk of 16 bytes written at the end of the file: its record. */
    private static ChunkRecord append(BlockFile blocks) throws IOException {
        long address = blocks.allocate(16);
        blocks.write(address, new byte[16]);
        return new ChunkRecord(address, 16, 0);
    }

    /**
     * The review's probe: the signature of leaf 0's right sibling overwritten. Chunk 1 goes in;
     * chunk 3 fails naming the sibling; the tree is as it was (chunks 0, 1, 2 and 4 where they
     * are, 3 not stored), in the cache and, after a flush, in the file.
     */
    @Test
    void aDamagedSiblingFailsTheSplitBeforeAnythingChanges() throws IOException {
        Libhdf5File libhdf5 = evenChunks();
        long sibling;
        try (Storage storage = FileStorage.open(libhdf5.path(), OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            BTreeV1Node<BTreeV1ChunkKey> node = libhdf5.node(blocks, libhdf5.root());
            while (node.level() > 0) {
                node = libhdf5.node(blocks, node.children()[0]);
            }
            assertEquals(3, node.entries(), "leaf 0 holds chunks 0, 2 and 4");
            sibling = node.rightSibling();
            blocks.write(sibling, ByteBuffer.wrap("XXXX".getBytes(StandardCharsets.US_ASCII)));
        }
        Map<Long, ChunkRecord> expected = new HashMap<>(libhdf5.chunks());
        try (Storage storage = FileStorage.open(libhdf5.path(), OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, libhdf5.root(), CHUNK,
                    ELEMENT_SIZE, K);
            ChunkRecord one = append(blocks);
            index.put(new long[] {1}, one);
            expected.put(1L, one);
            ChunkRecord three = append(blocks);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> index.put(new long[] {3}, three));
            assertEquals(sibling, e.offset(), e.getMessage());
            assertEquals(libhdf5.path(), e.file());
            for (long c = 0; c <= 4; c++) {
                assertEquals(expected.get(c), index.get(new long[] {c}), "chunk " + c);
            }
            cache.flush();
        }
        try (Hdf5File file = Hdf5File.open(libhdf5.path())) {
            ChunkIndex index = file.root().dataset("x").chunkIndex();
            for (long c = 0; c <= 4; c++) {
                assertEquals(expected.get(c), index.get(new long[] {c}), "chunk " + c);
            }
        }
    }

    /**
     * A leaf key off the chunk grid (leaf 0's key 1, chunk 2's offset 8 made 9): the insertion
     * into that leaf fails as a lookup would, naming the node and key, and changes nothing.
     */
    @Test
    void aKeyOffTheGridFailsTheInsertionAsALookupWould() throws IOException {
        Libhdf5File libhdf5 = evenChunks();
        long leaf;
        try (Storage storage = FileStorage.open(libhdf5.path(), OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            BTreeV1Node<BTreeV1ChunkKey> node = libhdf5.node(blocks, libhdf5.root());
            while (node.level() > 0) {
                node = libhdf5.node(blocks, node.children()[0]);
            }
            leaf = node.address();
            int keySize = BTreeV1ChunkKey.format(1).keySize();
            long offset = leaf + BTreeV1Node.childFieldOffset(1, keySize) - keySize + 8;
            blocks.write(offset, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(0, 9));
        }
        try (Storage storage = FileStorage.open(libhdf5.path(), OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, libhdf5.root(), CHUNK,
                    ELEMENT_SIZE, K);
            ChunkRecord one = append(blocks);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> index.put(new long[] {1}, one));
            assertEquals(leaf, e.offset(), e.getMessage());
            assertEquals("key 1", e.field());
            assertEquals("chunk offsets on chunk boundaries", e.expected());
            assertEquals(0, cache.dirtyCount(), "nothing changed");
        }
    }

    /**
     * A failure after the first change (the disk full while the cache evicts to make room for
     * the node split off leaf 0): the tree in the cache is half changed, so the index refuses
     * lookups and insertions from then on, naming the file and the failure.
     */
    @Test
    void aFailureAfterTheFirstChangeLeavesAnIndexThatRefuses() throws IOException {
        Libhdf5File libhdf5 = evenChunks();
        // a cache just large enough for every node and one entry written early (a new block
        // never published), which is evicted, and fails, when the split node comes in
        long bytes = splitWith(libhdf5, Long.MAX_VALUE, null);
        FullDisk disk = new FullDisk(FileStorage.OPENER);
        IOException full = assertThrows(IOException.class,
                () -> splitWith(libhdf5, bytes + 1, disk));
        assertTrue(full.getMessage().contains("No space left"), full.getMessage());
    }

    /**
     * Loads every node of the tree into a cache of {@code maxBytes} after a new block of its
     * own, inserts chunk 1 and then chunk 3 with the disk full; returns the bytes the cache
     * accounted before chunk 3. With a {@code disk}, the insertion of chunk 3 must fail and the
     * index refuse afterwards.
     */
    private static long splitWith(Libhdf5File libhdf5, long maxBytes, FullDisk disk)
            throws IOException {
        try (Storage storage = (disk != null ? disk : FileStorage.OPENER)
                .open(libhdf5.path(), OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, maxBytes, Durability.NONE);
            cache.insert(BlockEntry.metadata(blocks.allocate(16), 16, "early",
                    value -> new byte[16]));
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, libhdf5.root(), CHUNK,
                    ELEMENT_SIZE, K);
            for (long c = 0; c < 40; c++) {
                index.get(new long[] {c});
            }
            index.put(new long[] {1}, append(blocks));
            ChunkRecord three = append(blocks);
            long accounted = cache.accountedBytes();
            if (disk == null) {
                return accounted;
            }
            disk.fillAfter(0);
            IOException failure = assertThrows(IOException.class,
                    () -> index.put(new long[] {3}, three));
            for (long[] scaled : List.of(new long[] {0}, new long[] {20})) {
                IllegalStateException refused = assertThrows(IllegalStateException.class,
                        () -> index.get(scaled));
                assertTrue(refused.getMessage().startsWith(libhdf5.path() + ": the version 1 "
                        + "B-tree at " + libhdf5.root() + " is half changed"),
                        refused.getMessage());
                assertTrue(refused.getMessage().contains("No space left"), refused.getMessage());
            }
            assertThrows(IllegalStateException.class, () -> index.put(new long[] {5}, three));
            disk.free();
            throw failure;
        }
    }
}
