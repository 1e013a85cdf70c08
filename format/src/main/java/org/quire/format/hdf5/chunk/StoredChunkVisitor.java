package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkRecord;

/** Receives each chunk {@link ChunkIndex#forEachStoredChunk} finds storage for. */
@FunctionalInterface
public interface StoredChunkVisitor {

    /**
     * @param chunkCoordinates the chunk's scaled coordinates (in units of chunks, per dimension)
     * @param record           where the chunk is stored (always a written chunk)
     */
    void visit(long[] chunkCoordinates, ChunkRecord record) throws IOException;
}
