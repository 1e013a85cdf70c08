package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Where a chunk's stored bytes (after the filter pipeline) live. The chunk index maps a chunk's
 * coordinates to a {@link ChunkRecord}; the store decides where a new version of a chunk goes
 * and reads the bytes a record points at, whole or (for an unfiltered chunk, whose stored bytes
 * are its elements) in part. Today's one store, {@link InPlaceChunkStore}, rewrites a chunk
 * where it is when its stored size is unchanged and appends it otherwise; a versioned file will
 * store chunks content-addressed, shared between versions.
 */
public interface ChunkStore {

    /**
     * The stored bytes of the written chunk {@code record} points at.
     *
     * @throws org.quire.format.CorruptFileException the record's size cannot be a chunk's
     */
    byte[] read(ChunkRecord record) throws IOException;

    /**
     * Reads the stored bytes from {@code offset} into the remaining bytes of {@code into}.
     *
     * @throws org.quire.format.CorruptFileException they are not all inside the chunk or the file
     */
    void read(ChunkRecord record, long offset, ByteBuffer into) throws IOException;

    /**
     * Stores a chunk's new {@code stored} bytes (the buffer's remaining bytes, none of its
     * filters skipped) and returns the record the index is to keep for it.
     *
     * @param old the chunk's current record, or {@link ChunkRecord#UNWRITTEN}
     */
    ChunkRecord write(ChunkRecord old, ByteBuffer stored) throws IOException;

    /**
     * Replaces the stored bytes from {@code offset} with the remaining bytes of {@code bytes},
     * the rest of the chunk unchanged, and returns the record the index is to keep for it.
     *
     * @param old a written chunk's record; {@code bytes} must end inside it
     */
    ChunkRecord overwrite(ChunkRecord old, long offset, ByteBuffer bytes) throws IOException;

    /**
     * A new unfiltered chunk of {@code length} bytes that reads as zeros (the default fill
     * value) until {@link #overwrite} writes parts of it: an append that starts a chunk then
     * writes its records, not the whole chunk.
     */
    ChunkRecord createZeroed(int length) throws IOException;
}
