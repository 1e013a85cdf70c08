package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.hdf5.chunk.CorruptFileAssertions.assertCorrupt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BTreeV2ChunkRecord;
import org.quire.format.hdf5.layout.BTreeV2Geometry;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2InternalNode;
import org.quire.format.hdf5.layout.BTreeV2LeafNode;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.storage.OpenMode;

/**
 * The version-2 B-tree index on its own, beyond the chunk index contract
 * ({@code BTreeV2ChunkIndexContractTest}): records inserted in any order through leaf and
 * internal splits, and rewritten records that allocate no new nodes; through a metadata cache
 * of 16 KiB, so nodes are evicted (written early, children before parents) and reloaded;
 * while SWMR readers follow the file, no node of a flushed state is rewritten; the header
 * checked against the layout message and the filters.
 */
class BTreeV2ChunkIndexTest {

    private static final long CHUNK_BYTES = 4096;

    /** A bound that holds a few nodes: the larger trees' nodes are evicted and reloaded. */
    private static final long SMALL_CACHE = 16 << 10;

    @TempDir
    Path dir;

    /** The file {@code name}, created if missing, nothing allocated. */
    private IndexTestFile open(String name) throws IOException {
        return IndexTestFile.open(dir.resolve(name), OpenMode.CREATE_OR_OPEN);
    }

    /** A new tree of filtered 3-D chunks, the kind most tests use. */
    private static BTreeV2ChunkIndex createTree(IndexBlocks blocks) throws IOException {
        return BTreeV2ChunkIndex.create(blocks, ChunkRecordFormat.filtered(CHUNK_BYTES), 3,
                CHUNK_BYTES);
    }

    /** The tree of filtered 3-D chunks at {@code address}, read through a small cache. */
    private static BTreeV2ChunkIndex openTree(IndexTestFile file, long address)
            throws IOException {
        return openTree(file.blocks(file.cache(SMALL_CACHE)), address);
    }

    private static BTreeV2ChunkIndex openTree(IndexBlocks blocks, long address)
            throws IOException {
        return BTreeV2ChunkIndex.open(blocks, address, ChunkIndexParameters.BTreeV2.DEFAULT, 3,
                CHUNK_BYTES, true, false);
    }

    /** Puts each key's record of {@code generation}. */
    private static void putAll(ChunkIndex index, List<long[]> keys, long generation)
            throws IOException {
        for (long[] key : keys) {
            index.put(key, recordOf(key, generation));
        }
    }

    /** How many chunks a visit of {@code index} meets. */
    private static long storedChunks(ChunkIndex index) throws IOException {
        long[] count = {0};
        index.forEachStoredChunk((scaled, record) -> count[0]++);
        return count[0];
    }

    /** Every chunk of a 3-D grid of {@code n^3}, in a shuffled order. */
    private static List<long[]> shuffledGrid(int n, long seed) {
        List<long[]> keys = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            for (long j = 0; j < n; j++) {
                for (long k = 0; k < n; k++) {
                    keys.add(new long[] {i, j, k});
                }
            }
        }
        Collections.shuffle(keys, new Random(seed));
        return keys;
    }

    /** A record whose fields are derived from the key, so each key's record is distinct. */
    private static ChunkRecord recordOf(long[] key, long generation) {
        long address = 1_000_000 + (key[0] * 10_000 + key[1] * 100 + key[2]) * 16;
        return new ChunkRecord(address, 100 + key[2] + generation, (int) key[0]);
    }

    @Test
    void keepsEveryRecordThroughLeafAndInternalSplitsInAnyInsertionOrder() throws IOException {
        List<long[]> keys = shuffledGrid(20, 7);
        long address;
        try (IndexTestFile file = IndexTestFile.create(dir.resolve("tree.h5"))) {
            MetadataCache cache = file.cache(SMALL_CACHE);
            BTreeV2ChunkIndex index = createTree(file.blocks(cache));
            address = index.address();
            putAll(index, keys, 0);
            assertTrue(index.depth() >= 2, "depth " + index.depth());
            for (long[] key : keys) {
                assertEquals(recordOf(key, 0), index.get(key));
            }
            assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {20, 0, 0}));
            cache.flush();
            assertTrue(cache.accountedBytes() <= cache.maxBytes(),
                    "every node unprotected: " + cache.accountedBytes() + " bytes");
        }
        try (IndexTestFile file = open("tree.h5")) {
            BTreeV2ChunkIndex index = openTree(file, address);
            assertTrue(index.depth() >= 2, "depth " + index.depth());
            for (long[] key : keys) {
                assertEquals(recordOf(key, 0), index.get(key));
            }
            assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {5, 20, 5}));
            List<long[]> visited = new ArrayList<>();
            index.forEachStoredChunk((scaled, record) -> {
                assertEquals(recordOf(scaled, 0), record);
                visited.add(scaled);
            });
            assertEquals(keys.size(), visited.size());
            for (int i = 1; i < visited.size(); i++) {
                assertTrue(BTreeV2ChunkRecord.compare(visited.get(i - 1), visited.get(i)) < 0,
                        "visited in key order at " + i);
            }
        }
    }

    @Test
    void aRewrittenChunkReplacesItsRecordWithoutNewNodes() throws IOException {
        List<long[]> keys = shuffledGrid(8, 11);
        long address;
        try (IndexTestFile file = open("update.h5")) {
            MetadataCache cache = file.cache(SMALL_CACHE);
            BTreeV2ChunkIndex index = createTree(file.blocks(cache));
            address = index.address();
            putAll(index, keys, 0);
            cache.flush();
            long allocated = file.file().endOfAllocation();
            int depth = index.depth();
            putAll(index, keys, 1);
            cache.flush();
            assertEquals(allocated, file.file().endOfAllocation());
            assertEquals(depth, index.depth());
        }
        try (IndexTestFile file = open("update.h5")) {
            BTreeV2ChunkIndex index = openTree(file, address);
            for (long[] key : keys) {
                assertEquals(recordOf(key, 1), index.get(key));
            }
            assertEquals(keys.size(), storedChunks(index));
        }
    }

    /**
     * With readers following the file, inserts (through leaf splits) and replacements after a
     * flush leave every byte the flushed state holds as it was, but the header: the old state,
     * its header put back, still reads its records, and the new one reads the new records.
     */
    @Test
    void whileReadersFollowTheFileNoNodeOfAFlushedStateIsRewritten() throws IOException {
        List<long[]> keys = shuffledGrid(8, 3);
        List<long[]> first = keys.subList(0, 400);
        List<long[]> later = keys.subList(400, keys.size());
        Path path = dir.resolve("swmr.h5");
        long address;
        byte[] flushed;
        try (IndexTestFile file = IndexTestFile.create(path)) {
            MetadataCache cache = file.cache(SMALL_CACHE);
            BTreeV2ChunkIndex index = createTree(file.blocks(cache));
            address = index.address();
            putAll(index, first, 0);
            assertTrue(index.depth() >= 1, "depth " + index.depth());
            file.file().flushBegins();
            cache.flush();
            flushed = Files.readAllBytes(path);

            file.file().followedByReaders(true);
            // Replacements first, so they meet nodes of the flushed state; inserts after.
            putAll(index, first.subList(0, 50), 1);
            putAll(index, later, 0);
            file.file().flushBegins();
            cache.flush();
            assertTrue(cache.accountedBytes() <= cache.maxBytes(),
                    "every node moved or changed unprotected: " + cache.accountedBytes()
                    + " bytes");
            // The moved root hangs under the header as the one it replaced did (its children
            // may have been written early and evicted under the 16 KiB bound, and with them
            // their dependencies).
            long root = BTreeV2Header.read(file.file(), address, 3, CHUNK_BYTES).rootAddress();
            assertTrue(root >= flushed.length, "the root moved");
            assertTrue(cache.dependsOn(address, root), "header on root");
        }
        byte[] now = Files.readAllBytes(path);
        for (int i = 0; i < flushed.length; i++) {
            if ((i < address || i >= address + BTreeV2Header.SIZE) && flushed[i] != now[i]) {
                throw new AssertionError("byte " + i + " of the flushed state rewritten");
            }
        }
        try (IndexTestFile file = open("swmr.h5")) {
            BTreeV2ChunkIndex index = openTree(file, address);
            for (int i = 0; i < keys.size(); i++) {
                assertEquals(recordOf(keys.get(i), i < 50 ? 1 : 0), index.get(keys.get(i)));
            }
            assertEquals(keys.size(), storedChunks(index));
        }
        System.arraycopy(flushed, (int) address, now, (int) address, BTreeV2Header.SIZE);
        Files.write(path, now);
        try (IndexTestFile file = open("swmr.h5")) {
            BTreeV2ChunkIndex old = openTree(file, address);
            for (long[] key : first) {
                assertEquals(recordOf(key, 0), old.get(key));
            }
            assertEquals(ChunkRecord.UNWRITTEN, old.get(later.get(0)));
            assertEquals(first.size(), storedChunks(old));
        }
    }

    @Test
    void theHeaderMustHoldTheLayoutMessagesParametersAndRecordType() throws IOException {
        long filtered;
        long unfiltered;
        try (IndexTestFile file = IndexTestFile.create(dir.resolve("checks.h5"))) {
            MetadataCache cache = file.cache(SMALL_CACHE);
            filtered = BTreeV2ChunkIndex.create(file.blocks(cache),
                    ChunkRecordFormat.filtered(CHUNK_BYTES), 2, CHUNK_BYTES).address();
            unfiltered = BTreeV2ChunkIndex.create(file.blocks(cache),
                    ChunkRecordFormat.unfiltered(), 2, CHUNK_BYTES).address();
            cache.flush();
        }
        try (IndexTestFile file = open("checks.h5")) {
            IndexBlocks blocks = file.blocks(file.cache(SMALL_CACHE));
            ChunkIndexParameters.BTreeV2 other = new ChunkIndexParameters.BTreeV2(2048, 100, 39);
            CorruptFileException parameters = assertThrows(CorruptFileException.class,
                    () -> BTreeV2ChunkIndex.open(blocks, filtered, other, 2,
                            CHUNK_BYTES, true, false));
            assertCorrupt(parameters, filtered, BTreeV2Header.IDENTITY.structure(),
                    "creation parameters", other + " (from the data layout message)",
                    ChunkIndexParameters.BTreeV2.DEFAULT.toString());
            CorruptFileException asUnfiltered = assertThrows(CorruptFileException.class,
                    () -> BTreeV2ChunkIndex.open(blocks, filtered,
                            ChunkIndexParameters.BTreeV2.DEFAULT, 2, CHUNK_BYTES, false, false));
            assertCorrupt(asUnfiltered, filtered, BTreeV2Header.IDENTITY.structure(), "type",
                    "10 (unfiltered chunks)", "11");
            CorruptFileException asFiltered = assertThrows(CorruptFileException.class,
                    () -> BTreeV2ChunkIndex.open(blocks, unfiltered,
                            ChunkIndexParameters.BTreeV2.DEFAULT, 2, CHUNK_BYTES, true, false));
            assertCorrupt(asFiltered, unfiltered, BTreeV2Header.IDENTITY.structure(), "type",
                    "11 (filtered chunks)", "10");
        }
    }

    /**
     * A root whose first child pointer leads back to the root: a lookup below it is corrupt
     * at that address (a cycle), not an endless walk; keys the root holds are still found.
     */
    @Test
    void aChildPointerBackToTheRootIsACycle() throws IOException {
        List<long[]> keys = shuffledGrid(6, 5);
        long address;
        try (IndexTestFile file = IndexTestFile.create(dir.resolve("cycle.h5"))) {
            MetadataCache cache = file.cache(SMALL_CACHE);
            BTreeV2ChunkIndex index = createTree(file.blocks(cache));
            address = index.address();
            putAll(index, keys, 0);
            assertEquals(1, index.depth());
            cache.flush();
        }
        long root;
        long[] inRoot;
        try (IndexTestFile file = open("cycle.h5")) {
            BTreeV2Header<BTreeV2ChunkRecord> header = BTreeV2Header.read(file.file(), address,
                    3, CHUNK_BYTES);
            root = header.rootAddress();
            BTreeV2InternalNode<BTreeV2ChunkRecord> node = BTreeV2InternalNode.read(file.file(),
                    root, header.format(), header.geometry(), 1, header.rootRecords());
            List<BTreeV2InternalNode.ChildPointer> children = new ArrayList<>(node.children());
            BTreeV2InternalNode.ChildPointer first = children.get(0);
            children.set(0, new BTreeV2InternalNode.ChildPointer(root, first.records(),
                    first.totalRecords()));
            file.file().write(root, new BTreeV2InternalNode<>(node.records(), children)
                    .encode(header.format(), header.geometry(), 1));
            inRoot = node.records().get(0).scaled();
        }
        try (IndexTestFile file = open("cycle.h5")) {
            BTreeV2ChunkIndex index = openTree(file, address);
            assertEquals(recordOf(inRoot, 0), index.get(inRoot));
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> index.get(new long[] {0, 0, 0}));
            assertCorrupt(e, root, BTreeV2InternalNode.IDENTITY.structure(),
                    "child node address", "a node below its parent",
                    root + ", a node above it (a cycle)");
        }
    }

    /**
     * Through leaf and internal splits (depth 2), every node waits for the nodes and chunks it
     * points at: the header for the root, each internal node for its children, each leaf for
     * the chunks of its records; read back from the tree as flushed.
     */
    @Test
    void eachNodeWaitsForItsChildrenAndItsRecordsChunks() throws IOException {
        List<long[]> keys = shuffledGrid(14, 13);
        try (IndexTestFile indexFile = IndexTestFile.create(dir.resolve("dependencies.h5"))) {
            BlockFile file = indexFile.file();
            MetadataCache cache = indexFile.cache(1 << 24);
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.create(indexFile.blocks(cache),
                    ChunkRecordFormat.unfiltered(), 3, CHUNK_BYTES);
            for (long[] key : keys) {
                index.put(key, indexFile.writtenChunk(cache, CHUNK_BYTES));
            }
            assertEquals(2, index.depth());
            cache.flush();
            BTreeV2Header<BTreeV2ChunkRecord> header = BTreeV2Header.read(file,
                    index.address(), 3, CHUNK_BYTES);
            assertTrue(cache.dependsOn(index.address(), header.rootAddress()), "header on root");
            int[] counts = new int[3];
            assertSubtreeDependencies(file, cache, header, header.rootAddress(), 2,
                    header.rootRecords(), counts);
            assertTrue(counts[1] > 1, "internal nodes below the root: " + counts[1]);
            assertTrue(counts[0] > keys.size() / 2, "leaf records: " + counts[0]);
        }
    }

    /**
     * Checks the dependencies of the node at {@code address} and below; counts leaf records and
     * internal nodes per depth. (An internal node's own records came up from split leaves,
     * which still depend on their chunks.)
     */
    private static void assertSubtreeDependencies(BlockFile file, MetadataCache cache,
                                                  BTreeV2Header<BTreeV2ChunkRecord> header,
                                                  long address, int depth, int records,
                                                  int[] counts) throws IOException {
        if (depth == 0) {
            for (BTreeV2ChunkRecord record : BTreeV2LeafNode.read(file, address,
                    header.format(), header.geometry(), records).records()) {
                assertTrue(cache.dependsOn(address, record.chunk().address()),
                        "leaf " + address + " on chunk " + record.chunk().address());
                counts[0]++;
            }
            return;
        }
        counts[depth]++;
        BTreeV2InternalNode<BTreeV2ChunkRecord> node = BTreeV2InternalNode.read(file, address,
                header.format(), header.geometry(), depth, records);
        for (BTreeV2InternalNode.ChildPointer child : node.children()) {
            assertTrue(cache.dependsOn(address, child.address()),
                    "node " + address + " at depth " + depth + " on child " + child.address());
            assertSubtreeDependencies(file, cache, header, child.address(), depth - 1,
                    child.records(), counts);
        }
    }

    /**
     * A root leaf holds exactly as many records as fit; one more splits it: the old root,
     * keeping its address, becomes the left child of a new root, which the header now depends
     * on instead of it; the new root depends on both children, the right child on the chunks
     * of the records moved into it, and a replaced record's leaf on the new chunk. Opened for
     * writing again, the tree takes more records.
     */
    @Test
    void aFullRootLeafSplitsUnderANewRootOnlyAtTheRecordPastItsCapacity() throws IOException {
        int capacity = BTreeV2Geometry.of(ChunkIndexParameters.BTreeV2.DEFAULT.nodeSize(),
                new BTreeV2ChunkRecord.Format(ChunkRecordFormat.unfiltered(), 2, CHUNK_BYTES)
                        .size()).capacity(0);
        Path path = dir.resolve("split.h5");
        long address;
        try (IndexTestFile indexFile = IndexTestFile.create(path)) {
            BlockFile file = indexFile.file();
            MetadataCache cache = indexFile.cache(1 << 24);
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.create(indexFile.blocks(cache),
                    ChunkRecordFormat.unfiltered(), 2, CHUNK_BYTES);
            address = index.address();
            List<ChunkRecord> chunks = new ArrayList<>();
            for (int i = 0; i <= capacity; i++) {
                if (i == capacity) {
                    assertEquals(0, index.depth(), capacity + " records in the root leaf");
                    cache.flush();
                }
                ChunkRecord chunk = indexFile.writtenChunk(cache, CHUNK_BYTES);
                chunks.add(chunk);
                index.put(new long[] {0, i}, chunk);
            }
            assertEquals(1, index.depth());
            cache.flush();
            BTreeV2Header<BTreeV2ChunkRecord> header = BTreeV2Header.read(file, address, 2,
                    CHUNK_BYTES);
            BTreeV2InternalNode<BTreeV2ChunkRecord> root = BTreeV2InternalNode.read(file,
                    header.rootAddress(), header.format(), header.geometry(), 1,
                    header.rootRecords());
            long left = root.children().get(0).address();
            long right = root.children().get(1).address();
            assertTrue(cache.dependsOn(address, header.rootAddress()), "header on the new root");
            assertTrue(!cache.dependsOn(address, left), "header no longer on the old root");
            assertTrue(cache.dependsOn(header.rootAddress(), left), "root on its left child");
            assertTrue(cache.dependsOn(header.rootAddress(), right), "root on its right child");
            List<BTreeV2ChunkRecord> moved = BTreeV2LeafNode.read(file, right, header.format(),
                    header.geometry(), root.children().get(1).records()).records();
            for (BTreeV2ChunkRecord record : moved) {
                assertTrue(cache.dependsOn(right, record.chunk().address()),
                        "right child on the chunk of " + record.scaled()[1]);
            }
            ChunkRecord replacement = indexFile.writtenChunk(cache, CHUNK_BYTES);
            index.put(new long[] {0, 0}, replacement);
            assertTrue(cache.dependsOn(left, replacement.address()), "leaf on the new chunk");
            cache.flush();
        }
        try (IndexTestFile file = IndexTestFile.open(path, OpenMode.READ_WRITE)) {
            MetadataCache cache = file.cache(1 << 24);
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.open(file.blocks(cache),
                    address, ChunkIndexParameters.BTreeV2.DEFAULT, 2, CHUNK_BYTES, false, true);
            index.put(new long[] {1, 0}, new ChunkRecord(4096, CHUNK_BYTES, 0));
            cache.flush();
        }
        try (IndexTestFile file = open("split.h5")) {
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.open(file.blocks(file.cache(SMALL_CACHE)),
                    address, ChunkIndexParameters.BTreeV2.DEFAULT, 2, CHUNK_BYTES, false, false);
            assertEquals(new ChunkRecord(4096, CHUNK_BYTES, 0), index.get(new long[] {1, 0}));
            assertEquals(capacity + 2, storedChunks(index));
        }
    }

    /**
     * Through a cache that keeps nothing unprotected (bound of one byte; dirty nodes written
     * early), inserts through root splits and replacements leave only the header held once
     * flushed, and lookups and a visit of the tree read only leave nothing held.
     */
    @Test
    void noNodeStaysHeldAfterPutsGetsAndAVisit() throws IOException {
        List<long[]> keys = shuffledGrid(8, 17);
        Path path = dir.resolve("held.h5");
        long address;
        try (IndexTestFile file = IndexTestFile.create(path)) {
            MetadataCache none = file.cache(1);
            BTreeV2ChunkIndex index = createTree(file.blocks(none));
            address = index.address();
            putAll(index, keys, 0);
            putAll(index, keys.subList(0, 40), 1);
            assertTrue(index.depth() >= 1, "depth " + index.depth());
            none.flush();
            assertEquals(1, none.entryCount(), "entries after the puts (the header)");
        }
        try (IndexTestFile file = IndexTestFile.open(path, OpenMode.READ)) {
            MetadataCache none = file.cache(1);
            BTreeV2ChunkIndex index = openTree(file.blocks(none), address);
            for (int i = 0; i < keys.size(); i += 7) {
                assertEquals(recordOf(keys.get(i), i < 40 ? 1 : 0), index.get(keys.get(i)));
            }
            assertEquals(0, none.entryCount(), "entries after the lookups");
            assertEquals(keys.size(), storedChunks(index));
            assertEquals(0, none.entryCount(), "entries after the visit");
        }
    }
}
