package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/** An index's blocks as cache entries, and the flush dependencies it states between them. */
class IndexBlocksTest {

    @TempDir
    Path directory;
    private Storage storage;
    private MetadataCache cache;
    private IndexBlocks blocks;

    @BeforeEach
    void openFile() throws IOException {
        storage = FileStorage.open(directory.resolve("f"), OpenMode.CREATE_NEW);
        cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
        blocks = new IndexBlocks(new BlockFile(storage), cache);
    }

    @AfterEach
    void closeFile() throws IOException {
        storage.close();
    }

    private BlockEntry<Integer> block(long address) throws IOException {
        BlockEntry<Integer> entry = blocks.create(address, 4, (int) address,
                value -> new byte[] {value.byteValue(), 0, 0, 0});
        blocks.unprotect(entry);
        return entry;
    }

    @Test
    void aCreatedBlockIsDirtyAndAProtectedOneComesFromTheCacheOrTheReader() throws IOException {
        BlockEntry<Integer> created = block(100);
        assertTrue(cache.isDirty(100));
        BlockEntry<Integer> again = blocks.protect(100, 4, () -> {
            throw new AssertionError("read though cached");
        }, value -> new byte[4]);
        assertSame(created, again);
        blocks.unprotect(again);
        cache.flush();
        assertFalse(cache.isDirty(100));
        BlockEntry<Integer> read = blocks.protect(200, 4, () -> 7, value -> new byte[4]);
        assertEquals(7, read.value());
        assertFalse(cache.isDirty(200));
        blocks.changed(read);
        assertTrue(cache.isDirty(200));
        blocks.unprotect(read);
    }

    @Test
    void givesTheFileItWasMadeWith() throws IOException {
        BlockFile file = new BlockFile(storage);
        assertSame(file, new IndexBlocks(file, cache).file());
    }

    /** A cache room for two blocks of 4 bytes: a third evicts the oldest unprotected one. */
    @Test
    void anUnprotectedCleanBlockMayBeEvictedAProtectedOneNot() throws IOException {
        MetadataCache small = new MetadataCache(storage, 2 * (4 + MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY),
                Durability.NONE);
        IndexBlocks few = new IndexBlocks(new BlockFile(storage), small);
        BlockEntry<Integer> kept = few.protect(100, 4, () -> 1, value -> new byte[4]);
        BlockEntry<Integer> released = few.protect(200, 4, () -> 2, value -> new byte[4]);
        few.unprotect(released);
        few.unprotect(few.protect(300, 4, () -> 3, value -> new byte[4]));
        assertTrue(small.contains(100), "protected");
        assertFalse(small.contains(200), "unprotected, the oldest");
        assertTrue(small.contains(300));
        few.unprotect(kept);
    }

    @Test
    void aBlockDependsOnAChunkOnlyWhileTheChunkIsCached() throws IOException {
        BlockEntry<Integer> parent = block(100);
        blocks.dependsOnChunk(parent, ChunkRecord.UNWRITTEN);
        blocks.dependsOnChunk(parent, new ChunkRecord(300, 8, 0));
        assertFalse(cache.dependsOn(100, 300), "not cached");
        cache.insert(new ChunkProxy(300, 8));
        blocks.dependsOnChunk(parent, new ChunkRecord(300, 8, 0));
        assertTrue(cache.dependsOn(100, 300));
    }

    @Test
    void aMovedChildDependsOnItsNewParentOnly() throws IOException {
        BlockEntry<Integer> oldParent = block(100);
        BlockEntry<Integer> newParent = block(200);
        BlockEntry<Integer> child = block(300);
        blocks.dependsOn(oldParent, child);
        assertTrue(cache.dependsOn(100, 300));
        blocks.moveChild(100, newParent, 300);
        assertFalse(cache.dependsOn(100, 300));
        assertTrue(cache.dependsOn(200, 300));
        // A child its old parent did not depend on only gains the new one.
        BlockEntry<Integer> other = block(400);
        blocks.moveChild(100, other, 300);
        assertTrue(cache.dependsOn(400, 300));
        assertTrue(cache.dependsOn(200, 300));
        // An evicted (absent) child has nothing to order.
        blocks.moveChild(100, newParent, 500);
        assertFalse(cache.contains(500));
    }
}
