package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Chunks in the file, without free-space tracking: a chunk whose stored size is unchanged
 * (always so for an unfiltered one) is rewritten in place; one whose size changed (a filtered
 * chunk compressing differently) goes to newly allocated space at the end of the file, its old
 * space left unused. Each chunk written is a {@link ChunkProxy} in the metadata cache, so the
 * index block that records it can depend on its bytes; the store writes the bytes at once and
 * marks the proxy written; a write that fails leaves the cache as it was (a new chunk's space
 * unused, the old record in the index).
 */
public final class InPlaceChunkStore implements ChunkStore {

    private final BlockFile blocks;
    private final MetadataCache cache;

    public InPlaceChunkStore(BlockFile blocks, MetadataCache cache) {
        this.blocks = blocks;
        this.cache = cache;
    }

    @Override
    public byte[] read(ChunkRecord record) throws IOException {
        if (record.storedSize() < 0 || record.storedSize() > Integer.MAX_VALUE) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk", "size",
                    "0.." + Integer.MAX_VALUE, Long.toUnsignedString(record.storedSize()));
        }
        return blocks.read(record.address(), (int) record.storedSize(), "chunk");
    }

    @Override
    public ChunkRecord write(ChunkRecord old, byte[] stored) throws IOException {
        long address = old.isWritten() && old.storedSize() == stored.length ? old.address()
                : blocks.allocate(stored.length);
        blocks.write(address, stored);
        // Only once the bytes are there: a failed write leaves no proxy behind to block flushes.
        if (!cache.contains(address)) {
            cache.insert(new ChunkProxy(address, stored.length));
        }
        cache.chunkWritten(address);
        return new ChunkRecord(address, stored.length, 0);
    }
}
