package org.quire.format.hdf5.cache;

import java.nio.ByteBuffer;

/**
 * Stands in the cache for one raw chunk, so that the index entry pointing at the chunk can
 * depend on the chunk's bytes being written first ({@code createFlushDependency(indexBlock,
 * proxy)}). The chunk store writes the bytes itself and then tells the cache ({@link
 * MetadataCache#chunkWritten}); the cache never writes a proxy, and a flush that finds one
 * whose chunk is not written yet refuses to write anything. A proxy holds no bytes.
 */
public final class ChunkProxy implements CacheEntry {

    private final long address;
    private final long chunkSize;

    public ChunkProxy(long address, long chunkSize) {
        this.address = address;
        this.chunkSize = chunkSize;
    }

    @Override
    public long address() {
        return address;
    }

    /** Bytes of the chunk on disk (after its filters). */
    public long chunkSize() {
        return chunkSize;
    }

    @Override
    public int imageSize() {
        return 0;
    }

    @Override
    public FlushStage stage() {
        return FlushStage.RAW_DATA;
    }

    @Override
    public void encode(ByteBuffer target) {
        throw new IllegalStateException("the raw chunk at " + address
                + " is written by the chunk store, not by the metadata cache");
    }

    @Override
    public String toString() {
        return "chunk at " + address + " (" + chunkSize + " bytes)";
    }
}
