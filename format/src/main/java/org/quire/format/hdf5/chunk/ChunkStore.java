package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Where a chunk's stored bytes (after the filter pipeline) live. The chunk index maps a chunk's
 * coordinates to a {@link ChunkRecord}; the store decides where a new version of a chunk goes
 * and reads the bytes a record points at. Today's one store, {@link InPlaceChunkStore}, rewrites
 * a chunk where it is when its stored size is unchanged and appends it otherwise; a versioned
 * file will store chunks content-addressed, shared between versions.
 */
public interface ChunkStore {

    /**
     * The stored bytes of the written chunk {@code record} points at.
     *
     * @throws org.quire.format.CorruptFileException the record's size cannot be a chunk's
     */
    byte[] read(ChunkRecord record) throws IOException;

    /**
     * Stores a chunk's new {@code stored} bytes (none of its filters skipped) and returns the
     * record the index is to keep for it.
     *
     * @param old the chunk's current record, or {@link ChunkRecord#UNWRITTEN}
     */
    ChunkRecord write(ChunkRecord old, byte[] stored) throws IOException;
}
