package org.quire.format.hdf5;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * One stage of a dataset's filter pipeline, applied to each chunk on write ({@link #encode}) and
 * undone in reverse order on read ({@link #decode}). Identifiers and client data are those of
 * libhdf5's predefined filters, so files open in every HDF5 reader.
 */
public sealed interface Filter {

    /** zlib compression at {@code level} 0..9 (libhdf5 filter 1, {@code H5Z_FILTER_DEFLATE}). */
    static Filter deflate(int level) {
        return new Deflate(level);
    }

    /** Byte shuffle by element (libhdf5 filter 2, {@code H5Z_FILTER_SHUFFLE}). */
    static Filter shuffle() {
        return new Shuffle();
    }

    /** Fletcher-32 checksum appended to each chunk (libhdf5 filter 3). */
    static Filter fletcher32() {
        return new Fletcher32();
    }

    /**
     * LZF compression (filter 32000, registered by h5py, which bundles it; versioned-hdf5's hash
     * tables and Hangar's collections without blosc use it). Optional, as h5py sets it.
     */
    static Filter lzf() {
        return new Lzf();
    }

    /** The filter identifier in the filter pipeline message. */
    int id();

    /**
     * The name stored in the pipeline message: only filters outside libhdf5's predefined range
     * (identifiers from 256) have one; null for none.
     */
    default String name() {
        return null;
    }

    /** Pipeline flags: bit 0 set means "optional", a chunk may skip it. */
    int flags();

    /**
     * Client data values stored in the pipeline message for a dataset of this element size and
     * chunks of {@code chunkBytes} bytes before filtering.
     */
    int[] clientData(int elementSize, int chunkBytes);

    byte[] encode(byte[] chunk, int elementSize);

    /** What {@link #encodedSize} gives when the size depends on the data. */
    long UNKNOWN_SIZE = -1;

    /**
     * The size {@link #encode} gives for {@code size} bytes ({@link #UNKNOWN_SIZE} stays
     * unknown): the same for shuffle, 4 more for Fletcher-32, unknown for compression.
     */
    default long encodedSize(long size) {
        return UNKNOWN_SIZE;
    }

    /**
     * Undoes {@link #encode}.
     *
     * @throws IllegalArgumentException the bytes are not something this filter produced
     */
    byte[] decode(byte[] chunk, int elementSize);

    /**
     * Undoes {@link #encode}, the result expected to be {@code expectedSize} bytes long: a hint
     * that lets a filter whose output size is not in its input (deflate) produce it without
     * growing and copying buffers; the result has the size the data has.
     *
     * @throws IllegalArgumentException the bytes are not something this filter produced
     */
    default byte[] decode(byte[] chunk, int elementSize, int expectedSize) {
        return decode(chunk, elementSize);
    }

    record Deflate(int level) implements Filter {
        public Deflate {
            if (level < 0 || level > 9) {
                throw new IllegalArgumentException("deflate level must be 0..9: " + level);
            }
        }

        @Override public int id() {
            return 1;
        }

        @Override public int flags() {
            return 1;
        }

        @Override public int[] clientData(int elementSize, int chunkBytes) {
            return new int[] {level};
        }

        @Override public byte[] encode(byte[] chunk, int elementSize) {
            Deflater deflater = new Deflater(level);
            try {
                deflater.setInput(chunk);
                deflater.finish();
                ByteArrayOutputStream out = new ByteArrayOutputStream(chunk.length / 2 + 64);
                byte[] buffer = new byte[8192];
                while (!deflater.finished()) {
                    out.write(buffer, 0, deflater.deflate(buffer));
                }
                return out.toByteArray();
            } finally {
                deflater.end();
            }
        }

        @Override public byte[] decode(byte[] chunk, int elementSize) {
            return decode(chunk, elementSize, chunk.length * 4 + 64);
        }

        /** Inflates into one array of the expected size, grown only if the data is larger. */
        @Override public byte[] decode(byte[] chunk, int elementSize, int expectedSize) {
            Inflater inflater = new Inflater();
            try {
                inflater.setInput(chunk);
                byte[] out = new byte[Math.max(expectedSize, 64)];
                int length = 0;
                while (!inflater.finished()) {
                    if (length == out.length) {
                        out = Arrays.copyOf(out, out.length * 2);
                    }
                    int n = inflater.inflate(out, length, out.length - length);
                    if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        throw new IllegalArgumentException("deflate stream ends early");
                    }
                    length += n;
                }
                return length == out.length ? out : Arrays.copyOf(out, length);
            } catch (DataFormatException e) {
                throw new IllegalArgumentException("invalid deflate stream: " + e.getMessage(), e);
            } finally {
                inflater.end();
            }
        }
    }

    record Shuffle() implements Filter {
        @Override public int id() {
            return 2;
        }

        @Override public int flags() {
            return 1;
        }

        @Override public int[] clientData(int elementSize, int chunkBytes) {
            return new int[] {elementSize};
        }

        /** Byte {@code b} of element {@code e} moves to {@code b * count + e}; a tail stays. */
        @Override public long encodedSize(long size) {
            return size;
        }

        @Override public byte[] encode(byte[] chunk, int elementSize) {
            byte[] out = chunk.clone();
            int count = chunk.length / elementSize;
            for (int e = 0; e < count; e++) {
                for (int b = 0; b < elementSize; b++) {
                    out[b * count + e] = chunk[e * elementSize + b];
                }
            }
            return out;
        }

        @Override public byte[] decode(byte[] chunk, int elementSize) {
            byte[] out = chunk.clone();
            int count = chunk.length / elementSize;
            for (int e = 0; e < count; e++) {
                for (int b = 0; b < elementSize; b++) {
                    out[e * elementSize + b] = chunk[b * count + e];
                }
            }
            return out;
        }
    }

    record Fletcher32() implements Filter {
        @Override public int id() {
            return 3;
        }

        @Override public int flags() {
            return 0;
        }

        @Override public int[] clientData(int elementSize, int chunkBytes) {
            return new int[0];
        }

        @Override public long encodedSize(long size) {
            return size == UNKNOWN_SIZE ? UNKNOWN_SIZE : size + 4;
        }

        @Override public byte[] encode(byte[] chunk, int elementSize) {
            byte[] out = java.util.Arrays.copyOf(chunk, chunk.length + 4);
            int sum = checksum(chunk, chunk.length);
            for (int i = 0; i < 4; i++) {
                out[chunk.length + i] = (byte) (sum >>> (8 * i));
            }
            return out;
        }

        @Override public byte[] decode(byte[] chunk, int elementSize) {
            if (chunk.length < 4) {
                throw new IllegalArgumentException("chunk too short for a Fletcher-32 checksum");
            }
            int length = chunk.length - 4;
            int stored = (chunk[length] & 0xff) | (chunk[length + 1] & 0xff) << 8
                    | (chunk[length + 2] & 0xff) << 16 | (chunk[length + 3] & 0xff) << 24;
            int computed = checksum(chunk, length);
            if (stored != computed) {
                throw new IllegalArgumentException(String.format(
                        "Fletcher-32 checksum expected 0x%08x, found 0x%08x", computed, stored));
            }
            return java.util.Arrays.copyOf(chunk, length);
        }

        /**
         * libhdf5's Fletcher-32: big-endian 16-bit words (an odd last byte is the high byte of a
         * final word), both sums folded to 16 bits every 360 words and at the end.
         */
        static int checksum(byte[] data, int length) {
            int sum1 = 0;
            int sum2 = 0;
            int words = length / 2;
            int at = 0;
            while (words > 0) {
                int block = Math.min(words, 360);
                words -= block;
                for (int i = 0; i < block; i++, at += 2) {
                    sum1 += ((data[at] & 0xff) << 8) | (data[at + 1] & 0xff);
                    sum2 += sum1;
                }
                sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
                sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
            }
            if (length % 2 != 0) {
                sum1 += (data[at] & 0xff) << 8;
                sum2 += sum1;
                sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
                sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
            }
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
            return (sum2 << 16) | sum1;
        }
    }

    /**
     * h5py's LZF filter ({@code lzf/lzf_filter.c}): the chunk compressed by {@link LzfCodec}.
     * Client data as h5py's {@code set_local} stores them: the filter revision (4), liblzf's API
     * version (0x0105) and the chunk's size in bytes, which readers take as the output size.
     *
     * <p>h5py lets libhdf5 store a chunk that does not shrink uncompressed, with the filter's bit
     * set in the chunk's filter mask; reading such chunks works through the mask. Quire's chunk
     * writer keeps no mask, so it stores such a chunk as literal runs, 1/32 larger, which every
     * LZF reader decodes.
     */
    record Lzf() implements Filter {
        static final int ID = 32000;
        static final int FILTER_REVISION = 4;
        static final int LZF_API_VERSION = 0x0105;

        @Override public int id() {
            return ID;
        }

        @Override public String name() {
            return "lzf";
        }

        @Override public int flags() {
            return 1;
        }

        @Override public int[] clientData(int elementSize, int chunkBytes) {
            return new int[] {FILTER_REVISION, LZF_API_VERSION, chunkBytes};
        }

        @Override public byte[] encode(byte[] chunk, int elementSize) {
            return LzfCodec.compress(chunk);
        }

        /**
         * Without the output's size (LZF after a compressing filter): into an array grown as
         * needed, as h5py's filter grows its buffer, but never past {@link
         * LzfCodec#MAX_EXPANSION} times the stream nor {@link DatasetSpec#MAX_CHUNK_BYTES}.
         */
        @Override public byte[] decode(byte[] chunk, int elementSize) {
            long bound = Math.min((long) chunk.length * LzfCodec.MAX_EXPANSION,
                    DatasetSpec.MAX_CHUNK_BYTES);
            return LzfCodec.decompress(chunk, (int) Math.min(bound, 4L * chunk.length + 64),
                    (int) bound);
        }

        /**
         * Into one array of the output's size, which the pipeline knows exactly (the chunk's,
         * plus 4 per Fletcher-32 before LZF); a stream that would write more is damaged.
         */
        @Override public byte[] decode(byte[] chunk, int elementSize, int expectedSize) {
            return LzfCodec.decompress(chunk, expectedSize);
        }
    }
}
