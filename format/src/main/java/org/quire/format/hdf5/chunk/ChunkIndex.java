package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Maps a chunk's scaled coordinates (its element offset divided by the chunk size, per
 * dimension) to where the chunk is stored. Array indexes number chunks linearly
 * ({@link ChunkGrid#linearIndex}); the version-2 B-tree, used when several dimensions are
 * unlimited and no such numbering exists, keys its records by the coordinates themselves.
 * Implementations read their on-disk structures lazily and verify each one, through the file's
 * metadata cache; a change marks the blocks it touches dirty with their flush dependencies, and
 * the cache's flush writes them, children first.
 */
public interface ChunkIndex {

    /** The parameters and address to store in the data layout message. */
    ChunkIndexParameters parameters();

    long address();

    /** Where the chunk at {@code scaled} is, or {@link ChunkRecord#UNWRITTEN}. */
    ChunkRecord get(long[] scaled) throws IOException;

    /** Records where the chunk at {@code scaled} now is, replacing any earlier record. */
    void put(long[] scaled, ChunkRecord record) throws IOException;

    /**
     * Whether the records live in the data layout message itself (the single chunk index): the
     * dataset rewrites that message after a write.
     */
    default boolean recordsInLayoutMessage() {
        return false;
    }

    /**
     * Visits every chunk that has storage, with its chunk coordinates, reading (and verifying)
     * each index block once and skipping blocks and pages never written, so the cost follows
     * what was written, not the dataset's size. Changes not yet flushed are included.
     */
    void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException;
}
