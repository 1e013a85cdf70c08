package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The index of a chunked dataset never written, read from a file: libhdf5 (latest format)
 * allocates a fixed array, extensible array or version-2 B-tree only with the first chunk and
 * leaves the layout message's index address undefined until then (its type and parameters are
 * named). Every chunk reads as the fill value. In a file reopened for writing, the first {@link
 * #put} creates the index as {@link ChunkIndexes#create} does for a new dataset ({@link
 * ChunkIndexes} has checked that this gives the parameters the layout names) and the dataset
 * rewrites its layout message with the new address; from then on this delegates to it.
 */
final class UnallocatedChunkIndex implements ChunkIndex {

    /** Creates the real index; null when the file is read only. */
    @FunctionalInterface
    interface Creator {
        ChunkIndex create() throws IOException;
    }

    private final ChunkIndexParameters parameters;
    private final Creator creator;
    private ChunkIndex created;

    UnallocatedChunkIndex(ChunkIndexParameters parameters, Creator creator) {
        this.parameters = parameters;
        this.creator = creator;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return created != null ? created.parameters() : parameters;
    }

    @Override
    public long address() {
        return created != null ? created.address() : Addresses.UNDEFINED;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        return created != null ? created.get(scaled) : ChunkRecord.UNWRITTEN;
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        if (created == null) {
            if (creator == null) {
                throw new IllegalStateException("the file is open read-only");
            }
            created = creator.create();
        }
        created.put(scaled, record);
    }

    /** The layout message holds the index's address, which the first write defines. */
    @Override
    public boolean recordsInLayoutMessage() {
        return true;
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (created != null) {
            created.forEachStoredChunk(visitor);
        }
    }
}
