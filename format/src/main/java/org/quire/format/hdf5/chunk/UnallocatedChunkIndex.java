package org.quire.format.hdf5.chunk;

import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The index of a chunked dataset never written, read from a file: libhdf5 (latest format)
 * allocates a fixed array, extensible array or version-2 B-tree only with the first chunk and
 * leaves the layout message's index address undefined until then. Every chunk reads as the
 * fill value.
 */
final class UnallocatedChunkIndex implements ChunkIndex {

    private final ChunkIndexParameters parameters;

    UnallocatedChunkIndex(ChunkIndexParameters parameters) {
        this.parameters = parameters;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return parameters;
    }

    @Override
    public long address() {
        return Addresses.UNDEFINED;
    }

    @Override
    public ChunkRecord get(long[] scaled) {
        return ChunkRecord.UNWRITTEN;
    }

    /** Never called: only datasets Quire creates are written, with an index of their own. */
    @Override
    public void put(long[] scaled, ChunkRecord record) {
        throw new IllegalStateException("a dataset read from a file is not written");
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) {
    }
}
