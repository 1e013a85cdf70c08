package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Single chunk "index" (layout index type 1): the dataset is one chunk whose address, and for a
 * filtered chunk its size and filter mask, are stored in the data layout message itself.
 */
public final class SingleChunkIndex implements ChunkIndex {

    private final int rank;
    private final boolean filtered;
    private ChunkRecord record;

    SingleChunkIndex(int rank, boolean filtered, ChunkRecord record) {
        this.rank = rank;
        this.filtered = filtered;
        this.record = record;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return new ChunkIndexParameters.SingleChunk(filtered ? record.storedSize() : -1,
                record.filterMask());
    }

    @Override
    public long address() {
        return record.address();
    }

    @Override
    public ChunkRecord get(long[] scaled) {
        return record;
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) {
        this.record = record;
    }

    /** The owning dataset rewrites its layout message after each write. */
    @Override
    public boolean recordsInLayoutMessage() {
        return true;
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (record.isWritten()) {
            visitor.visit(new long[rank], record);
        }
    }
}
