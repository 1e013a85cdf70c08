package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Chunks in the file, without free-space tracking. A chunk goes to newly allocated space at the
 * end of the file (its old space left unused) when its stored size changed (a filtered chunk
 * compressing differently), and when it is filtered and a flushed state may point at it: a
 * crash in the middle of rewriting it in place would tear it, and its checksum or encoding
 * would fail in the state the file recovers to. Otherwise (an unfiltered chunk, or a filtered
 * one new since the last flush) it is rewritten in place; an unfiltered chunk a flushed state
 * points at then changes in that state too (docs/hdf5.md, "Crashes and recovery"). Each chunk
 * written is a {@link ChunkProxy} in the metadata cache, so the index block that records it can
 * depend on its bytes; the store writes the bytes, then inserts the proxy and marks it written;
 * a write that fails leaves the cache as it was (a new chunk's space unused, the old record in
 * the index).
 */
public final class InPlaceChunkStore implements ChunkStore {

    private final BlockFile blocks;
    private final MetadataCache cache;
    /** Whether the dataset has filters: its chunks carry their own checksums or encodings. */
    private final boolean filtered;

    public InPlaceChunkStore(BlockFile blocks, MetadataCache cache, boolean filtered) {
        this.blocks = blocks;
        this.cache = cache;
        this.filtered = filtered;
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
        boolean inPlace = old.isWritten() && old.storedSize() == stored.length
                && !(filtered && blocks.reachableFromFlushedState(old.address()));
        long address = inPlace ? old.address() : blocks.allocate(stored.length);
        blocks.write(address, stored);
        // Only once the bytes are there: a failed write leaves no proxy behind to block flushes.
        if (!cache.contains(address)) {
            cache.insert(new ChunkProxy(address, stored.length));
        }
        cache.chunkWritten(address);
        return new ChunkRecord(address, stored.length, 0);
    }
}
