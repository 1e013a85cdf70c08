package org.quire.format.hdf5;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkRecord;

/** Receives each chunk a chunk index holds storage for. */
@FunctionalInterface
interface StoredChunkVisitor {

    /**
     * @param chunkCoordinates the chunk's scaled coordinates (in units of chunks)
     * @param record           where the chunk is stored
     */
    void visit(long[] chunkCoordinates, ChunkRecord record) throws IOException;
}
