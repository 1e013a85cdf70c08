package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * A chunk index's way to its blocks: every block is an entry of the file's {@link
 * MetadataCache}, reached between {@link #protect} and {@link #unprotect}, so an index holds
 * no blocks of its own and its memory is the cache's bound. A block that changes is marked
 * dirty and made to depend on what it points at ({@link #dependsOn}, {@link #dependsOnChunk}):
 * the cache then writes children before parents.
 */
final class IndexBlocks {

    /** Reads a block's value from the file when the cache does not hold it. */
    @FunctionalInterface
    interface ValueReader<T> {
        T read() throws IOException;
    }

    private final BlockFile file;
    private final MetadataCache cache;

    IndexBlocks(BlockFile file, MetadataCache cache) {
        this.file = file;
        this.cache = cache;
    }

    BlockFile file() {
        return file;
    }

    /** A new block (dirty: never written), protected. */
    <T> BlockEntry<T> create(long address, int imageSize, T value,
                             BlockEntry.Encoder<? super T> encoder) throws IOException {
        return cache.insertProtected(BlockEntry.metadata(address, imageSize, value, encoder));
    }

    /** The block at {@code address}, read with {@code reader} on a miss, protected. */
    @SuppressWarnings("unchecked")
    <T> BlockEntry<T> protect(long address, int imageSize, ValueReader<T> reader,
                              BlockEntry.Encoder<? super T> encoder) throws IOException {
        return cache.protect(address, BlockEntry.class,
                (at, storage) -> BlockEntry.metadata(at, imageSize, reader.read(), encoder));
    }

    void unprotect(BlockEntry<?> entry) throws IOException {
        cache.unprotect(entry);
    }

    /** Records that the protected {@code entry} changed: the next flush writes it. */
    void changed(BlockEntry<?> entry) {
        cache.markDirty(entry);
    }

    /** {@code parent} (which points at {@code child}) is written only after it. */
    void dependsOn(BlockEntry<?> parent, BlockEntry<?> child) {
        cache.createFlushDependency(parent.address(), child.address());
    }

    /** {@code parent}, which now records {@code chunk}, is written only after the chunk. */
    void dependsOnChunk(BlockEntry<?> parent, ChunkRecord chunk) {
        if (chunk.isWritten() && cache.contains(chunk.address())) {
            cache.createFlushDependency(parent.address(), chunk.address());
        }
    }

    /** Moves {@code child} (a node that changed parents in a split) under {@code newParent}. */
    void moveChild(long oldParent, BlockEntry<?> newParent, long child) {
        if (!cache.contains(child)) {
            return; // evicted: clean, nothing left to order
        }
        if (cache.dependsOn(oldParent, child)) {
            cache.destroyFlushDependency(oldParent, child);
        }
        cache.createFlushDependency(newParent.address(), child);
    }
}
