package org.quire.format.hdf5;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkRecord;

/** Receives the chunks {@link ChunkIndex#forEachStoredChunk} finds. */
@FunctionalInterface
interface StoredChunkVisitor {

    /**
     * @param chunkCoordinates the chunk's position in units of chunks, per dimension
     * @param record           where the chunk is stored (always a written chunk)
     */
    void visit(long[] chunkCoordinates, ChunkRecord record) throws IOException;
}
