package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Maps a chunk's scaled coordinates (its element offset divided by the chunk size, per
 * dimension) to where the chunk is stored. Array indexes number chunks linearly
 * ({@link ChunkGrid#linearIndex}); the version-2 B-tree, used when several dimensions are
 * unlimited and no such numbering exists, keys its records by the coordinates themselves.
 * Implementations read their on-disk structures lazily and verify each one; on a writable file
 * they keep changes in memory until {@link #flush()}, which writes child structures before the
 * structures pointing at them.
 */
public interface ChunkIndex {

    /** The parameters and address to store in the data layout message. */
    ChunkIndexParameters parameters();

    long address();

    /** Where the chunk at {@code scaled} is, or {@link ChunkRecord#UNWRITTEN}. */
    ChunkRecord get(long[] scaled) throws IOException;

    /** Records where the chunk at {@code scaled} now is, replacing any earlier record. */
    void put(long[] scaled, ChunkRecord record) throws IOException;

    void flush() throws IOException;

    /**
     * Visits every chunk that has storage, with its chunk coordinates, reading (and verifying)
     * each index block once and skipping blocks and pages never written, so the cost follows
     * what was written, not the dataset's size. Changes not yet flushed are included.
     */
    void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException;
}
