package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BTreeV2ChunkRecord;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The version-2 B-tree index on its own, beyond the chunk index contract
 * ({@code BTreeV2ChunkIndexContractTest}): records inserted in any order through leaf and
 * internal splits, and rewritten records that allocate no new nodes; through a metadata cache
 * of 16 KiB, so nodes are evicted (written early, children before parents) and reloaded.
 */
class BTreeV2ChunkIndexTest {

    private static final long CHUNK_BYTES = 4096;

    @TempDir
    Path dir;

    /** A file and the metadata cache its tree's nodes go through. */
    private record TreeFile(BlockFile file, MetadataCache cache) implements AutoCloseable {
        IndexBlocks blocks() {
            return new IndexBlocks(file, cache);
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private TreeFile open(String name) throws IOException {
        Storage storage = FileStorage.open(dir.resolve(name), OpenMode.CREATE_OR_OPEN);
        return new TreeFile(new BlockFile(storage),
                new MetadataCache(storage, 16 << 10, Durability.NONE));
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
        try (TreeFile file = open("tree.h5")) {
            file.file().allocate(64);
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.create(file.blocks(),
                    ChunkRecordFormat.filtered(CHUNK_BYTES), 3, CHUNK_BYTES);
            address = index.address();
            for (long[] key : keys) {
                index.put(key, recordOf(key, 0));
            }
            assertTrue(index.depth() >= 2, "depth " + index.depth());
            for (long[] key : keys) {
                assertEquals(recordOf(key, 0), index.get(key));
            }
            assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {20, 0, 0}));
            file.cache().flush();
        }
        try (TreeFile file = open("tree.h5")) {
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.open(file.blocks(), address,
                    ChunkIndexParameters.BTreeV2.DEFAULT, 3, CHUNK_BYTES, true, false);
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
        try (TreeFile file = open("update.h5")) {
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.create(file.blocks(),
                    ChunkRecordFormat.filtered(CHUNK_BYTES), 3, CHUNK_BYTES);
            address = index.address();
            for (long[] key : keys) {
                index.put(key, recordOf(key, 0));
            }
            file.cache().flush();
            long allocated = file.file().endOfAllocation();
            int depth = index.depth();
            for (long[] key : keys) {
                index.put(key, recordOf(key, 1));
            }
            file.cache().flush();
            assertEquals(allocated, file.file().endOfAllocation());
            assertEquals(depth, index.depth());
        }
        try (TreeFile file = open("update.h5")) {
            BTreeV2ChunkIndex index = BTreeV2ChunkIndex.open(file.blocks(), address,
                    ChunkIndexParameters.BTreeV2.DEFAULT, 3, CHUNK_BYTES, true, false);
            for (long[] key : keys) {
                assertEquals(recordOf(key, 1), index.get(key));
            }
            long[] count = {0};
            index.forEachStoredChunk((scaled, record) -> count[0]++);
            assertEquals(keys.size(), count[0]);
        }
    }
}
