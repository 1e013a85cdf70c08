package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Chunks in the file, without free-space tracking: a chunk whose stored size is unchanged
 * (always so for an unfiltered one) is rewritten in place; one whose size changed (a filtered
 * chunk compressing differently) goes to newly allocated space at the end of the file, its old
 * space left unused.
 */
public final class InPlaceChunkStore implements ChunkStore {

    private final BlockFile blocks;

    public InPlaceChunkStore(BlockFile blocks) {
        this.blocks = blocks;
    }

    @Override
    public byte[] read(ChunkRecord record) throws IOException {
        if (record.storedSize() < 0 || record.storedSize() > Integer.MAX_VALUE) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk", "size",
                    "0.." + Integer.MAX_VALUE, Long.toUnsignedString(record.storedSize()));
        }
        return blocks.read(record.address(), (int) record.storedSize(), "chunk");
    }

    @Override
    public ChunkRecord write(ChunkRecord old, byte[] stored) throws IOException {
        long address = old.isWritten() && old.storedSize() == stored.length ? old.address()
                : blocks.allocate(stored.length);
        blocks.write(address, stored);
        return new ChunkRecord(address, stored.length, 0);
    }
}
