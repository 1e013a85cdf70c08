package org.quire.format.hdf5.cache;

import java.nio.ByteBuffer;

/**
 * A metadata block held as a Java value (records, addresses, a bitmap, or the object that owns
 * the block's fields) and encoded into its on-disk image only when the cache writes it. The
 * layout class of the structure does the encoding; this class only carries it to the cache.
 *
 * @param <T> what the holder reads and changes between {@code protect} and {@code unprotect}
 */
public final class BlockEntry<T> implements CacheEntry {

    /** The on-disk image of a block holding {@code value}: exactly the entry's image size. */
    @FunctionalInterface
    public interface Encoder<T> {
        byte[] encode(T value);
    }

    private final long address;
    private final int imageSize;
    private final FlushStage stage;
    private final T value;
    private final Encoder<? super T> encoder;

    public BlockEntry(long address, int imageSize, FlushStage stage, T value,
                      Encoder<? super T> encoder) {
        if (stage == FlushStage.RAW_DATA) {
            throw new IllegalArgumentException("raw chunks are ChunkProxy entries");
        }
        this.address = address;
        this.imageSize = imageSize;
        this.stage = stage;
        this.value = value;
        this.encoder = encoder;
    }

    /** A {@link FlushStage#METADATA} block. */
    public static <T> BlockEntry<T> metadata(long address, int imageSize, T value,
                                             Encoder<? super T> encoder) {
        return new BlockEntry<>(address, imageSize, FlushStage.METADATA, value, encoder);
    }

    public T value() {
        return value;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int imageSize() {
        return imageSize;
    }

    @Override
    public FlushStage stage() {
        return stage;
    }

    @Override
    public void encode(ByteBuffer target) {
        byte[] image = encoder.encode(value);
        if (image.length != imageSize) {
            throw new IllegalStateException(stage + " block at " + address + " encoded "
                    + image.length + " bytes, its image has " + imageSize);
        }
        target.put(image);
    }

    @Override
    public String toString() {
        return stage + " block at " + address + " (" + imageSize + " bytes)";
    }
}
