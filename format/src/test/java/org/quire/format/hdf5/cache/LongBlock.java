package org.quire.format.hdf5.cache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A test metadata block: a fixed number of little-endian longs at a fixed address, in a
 * chosen flush stage. Stands for an index block, an object header or a superblock.
 */
final class LongBlock implements CacheEntry {

    private final long address;
    private final FlushStage stage;
    private final long[] values;

    LongBlock(long address, FlushStage stage, int length) {
        this(address, stage, new long[length]);
    }

    private LongBlock(long address, FlushStage stage, long[] values) {
        this.address = address;
        this.stage = stage;
        this.values = values;
    }

    /** Reads blocks of {@code length} longs of {@code stage} back. */
    static EntryLoader<LongBlock> loader(FlushStage stage, int length) {
        return (address, storage) -> {
            ByteBuffer image = ByteBuffer.allocate(length * Long.BYTES)
                    .order(ByteOrder.LITTLE_ENDIAN);
            if (!storage.readFully(image, address)) {
                throw new EOFException("block at " + address + " is beyond the end");
            }
            long[] values = new long[length];
            image.flip().asLongBuffer().get(values);
            return new LongBlock(address, stage, values);
        };
    }

    long get(int index) {
        return values[index];
    }

    void set(int index, long value) {
        values[index] = value;
    }

    int length() {
        return values.length;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int imageSize() {
        return values.length * Long.BYTES;
    }

    @Override
    public FlushStage stage() {
        return stage;
    }

    @Override
    public void encode(ByteBuffer target) {
        ByteBuffer image = target.slice().order(ByteOrder.LITTLE_ENDIAN);
        image.asLongBuffer().put(values);
        target.position(target.position() + imageSize());
    }
}
