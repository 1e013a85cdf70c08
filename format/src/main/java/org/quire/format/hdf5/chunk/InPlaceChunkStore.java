package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Chunks in the file, without free-space tracking. A chunk goes to newly allocated space at the
 * end of the file (its old space left unused) when its stored size changed (a filtered chunk
 * compressing differently), and when it is filtered and a flushed state may point at it: a
 * crash in the middle of rewriting it in place would tear it, and its checksum or encoding
 * would fail in the state the file recovers to. Otherwise (an unfiltered chunk, or a filtered
 * one new since the last flush) it is rewritten in place; an unfiltered chunk may also be
 * rewritten in part, the selected runs only. An unfiltered chunk a flushed state points at then
 * changes in that state too (docs/hdf5.md, "Crashes and recovery"). Each chunk written, whole or
 * in part, is a {@link ChunkProxy} in the metadata cache, so the index block that records it can
 * depend on its bytes; the store writes the bytes, then inserts the proxy and marks it written;
 * a write that fails leaves the cache as it was (a new chunk's space unused, the old record in
 * the index).
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
 *
 * <p>After {@link #pack()} new space follows whatever was allocated last, as in libhdf5 without
 * {@code H5Pset_alignment}: for a dataset that grows by a few chunks between other metadata
 * (a versioned dataset's raw_data, one commit at a time) the skips would be most of the bytes a
 * commit adds (docs/hdf5.md).
 */
public final class InPlaceChunkStore implements ChunkStore {

    /** The smallest alignment applied: chunks whose size is a multiple of no more are packed. */
    static final int MIN_ALIGNMENT = 64 * 1024;
    /** The largest alignment applied: measured best (of 128 KiB to 1 MiB) for 1 MiB chunks. */
    static final int MAX_ALIGNMENT = 1024 * 1024;

    private final BlockFile blocks;
    private final MetadataCache cache;
    /** Whether the dataset has filters: its chunks carry their own checksums or encodings. */
    private final boolean filtered;
    private boolean packed;

    public InPlaceChunkStore(BlockFile blocks, MetadataCache cache, boolean filtered) {
        this.blocks = blocks;
        this.cache = cache;
        this.filtered = filtered;
    }

    /** New chunks from now on go right after the last allocation, unaligned. */
    public void pack() {
        packed = true;
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
        boolean inPlace = old.isWritten() && old.storedSize() == length
                && !(filtered && blocks.reachableFromFlushedState(old.address()));
        long address = inPlace ? old.address() : allocate(length);
        blocks.write(address, stored);
        written(address, length);
        return new ChunkRecord(address, length, 0);
    }

    @Override
    public ChunkRecord overwrite(ChunkRecord old, long offset, ByteBuffer bytes)
            throws IOException {
        if (filtered) {
            throw new IllegalStateException("a filtered chunk is rewritten whole, not in part: "
                    + old);
        }
        if (!old.isWritten() || offset < 0 || offset > old.storedSize() - bytes.remaining()) {
            throw new IllegalArgumentException("bytes " + offset + ".." + (offset
                    + bytes.remaining()) + " are not inside the chunk " + old);
        }
        blocks.write(old.address() + offset, bytes);
        written(old.address(), old.storedSize());
        return old;
    }

    /**
     * New space is past every byte this writer or an earlier one wrote (allocation starts at
     * the file's size when it is opened), so it reads as zeros; one zero byte at its end makes
     * the file cover it before the next flush extends it: this writer may read the chunk's
     * unwritten part before then, and reads end at the file's size (readers after a flush need
     * no such byte: every flush makes the file cover the superblock's end of file address).
     */
    @Override
    public ChunkRecord createZeroed(int length) throws IOException {
        if (filtered) {
            throw new IllegalStateException("a filtered chunk is written whole, from its "
                    + "encoding, not created empty");
        }
        long address = allocate(length);
        if (blocks.size() < address + length) {
            blocks.write(address + length - 1, new byte[1]);
        }
        written(address, length);
        return new ChunkRecord(address, length, 0);
    }

    /** Only once the bytes are there: a failed write leaves no proxy behind to block flushes. */
    private void written(long address, long length) throws IOException {
        if (!cache.contains(address)) {
            cache.insert(new ChunkProxy(address, length));
        }
        cache.chunkWritten(address);
    }

    /** New space for a chunk of {@code length} bytes, aligned as the class comment says. */
    private long allocate(int length) {
        int alignment = Math.min(Integer.lowestOneBit(length), MAX_ALIGNMENT);
        if (!packed && alignment >= MIN_ALIGNMENT) {
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
