package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Chunks in the file, without free-space tracking: a chunk whose stored size is unchanged
 * (always so for an unfiltered one) is rewritten in place, whole or in part; one whose size
 * changed (a filtered chunk compressing differently) goes to newly allocated space at the end of
 * the file, its old space left unused.
 *
 * <p>New space for a chunk whose stored size is a multiple of 64 KiB or more (an unfiltered
 * chunk of a power-of-two size, typically) starts at a multiple of the largest power of two that
 * divides its size, at most {@value #MAX_ALIGNMENT} bytes; consecutive chunks of such a size
 * then stay aligned with nothing between them. The kernel copies such ranges to and from the
 * page cache for less (presumably in large folios): writing 256 MiB in 1 MiB pieces at
 * 1 MiB-aligned offsets took 4-9% less CPU time, and reading them 6-14% less, than at offsets
 * aligned only to 4 KiB or not at all; 512 KiB alignment gained about as much, 128 KiB little
 * (ext4, kernel 6.18, 2026-11-25). The bytes skipped are left unused: less than the alignment
 * before each run of such chunks, and a run ends where the chunk index allocates a block of
 * its own between two chunks (an extensible array's data blocks as it grows: 8 MiB over a
 * 256 MiB dataset of 1 MiB chunks); HDF5 addresses need no alignment (it
 * is what libhdf5's {@code H5Pset_alignment} does), so every reader reads such files.
 */
public final class InPlaceChunkStore implements ChunkStore {

    /** The smallest alignment applied: chunks whose size is a multiple of no more are packed. */
    static final int MIN_ALIGNMENT = 64 * 1024;
    /** The largest alignment applied: measured best (of 128 KiB to 1 MiB) for 1 MiB chunks. */
    static final int MAX_ALIGNMENT = 1024 * 1024;

    private final BlockFile blocks;

    public InPlaceChunkStore(BlockFile blocks) {
        this.blocks = blocks;
    }

    @Override
    public byte[] read(ChunkRecord record) throws IOException {
        requireSize(record);
        return blocks.read(record.address(), (int) record.storedSize(), "chunk");
    }

    @Override
    public void read(ChunkRecord record, long offset, ByteBuffer into) throws IOException {
        requireSize(record);
        requirePart(record, offset, into.remaining());
        blocks.read(record.address() + offset, into, "chunk");
    }

    @Override
    public ChunkRecord write(ChunkRecord old, ByteBuffer stored) throws IOException {
        int length = stored.remaining();
        long address = old.isWritten() && old.storedSize() == length ? old.address()
                : allocate(length);
        blocks.write(address, stored);
        return new ChunkRecord(address, length, 0);
    }

    @Override
    public ChunkRecord overwrite(ChunkRecord old, long offset, ByteBuffer bytes)
            throws IOException {
        if (!old.isWritten() || offset < 0 || offset > old.storedSize() - bytes.remaining()) {
            throw new IllegalArgumentException("bytes " + offset + ".." + (offset
                    + bytes.remaining()) + " are not inside the chunk " + old);
        }
        blocks.write(old.address() + offset, bytes);
        return old;
    }

    /** New space for a chunk of {@code length} bytes, aligned as the class comment says. */
    private long allocate(int length) {
        int alignment = Math.min(Integer.lowestOneBit(length), MAX_ALIGNMENT);
        if (alignment >= MIN_ALIGNMENT) {
            long skip = Math.floorMod(-blocks.endOfAllocation(), (long) alignment);
            if (skip > 0) {
                blocks.allocate(skip);
            }
        }
        return blocks.allocate(length);
    }

    private void requireSize(ChunkRecord record) throws CorruptFileException {
        if (record.storedSize() < 0 || record.storedSize() > Integer.MAX_VALUE) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk", "size",
                    "0.." + Integer.MAX_VALUE, Long.toUnsignedString(record.storedSize()));
        }
    }

    private void requirePart(ChunkRecord record, long offset, int length)
            throws CorruptFileException {
        if (offset < 0 || offset > record.storedSize() - length) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk", "size",
                    "at least " + (offset + length) + " bytes", Long.toString(record.storedSize()));
        }
    }
}
