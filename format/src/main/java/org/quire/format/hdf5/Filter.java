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
     * The most bytes this filter's encoders (Quire's, libhdf5's and h5py's) give for {@code size}
     * bytes: what a reader may accept from it when the exact size is not known.
     */
    long maxEncodedSize(long size);

    /**
     * Undoes {@link #encode}, giving at most {@code limit} bytes and never holding more than
     * that: the pipeline passes the size this stage must give where it is known, and otherwise
     * the most the filters before it can have written.
     *
     * @throws IllegalArgumentException the bytes are not something this filter produced
     * @throws OutputPastLimitException the bytes decode to more than {@code limit}
     */
    byte[] decode(byte[] chunk, int elementSize, int limit);

    /** A filter's output would pass the limit it was given: the data are damaged or hostile. */
    final class OutputPastLimitException extends IllegalArgumentException {
        private final String found;

        /**
         * @param found what the output would be, for the pipeline's error: "more than N bytes"
         *              where the filter stopped
         */
        OutputPastLimitException(String message, String found) {
            super(message);
            this.found = found;
        }

        OutputPastLimitException(int limit, String found) {
            this("output of " + found + " passes the limit of " + limit + " bytes", found);
        }

        /** What the output would be, as the constructor was told. */
        public String found() {
            return found;
        }
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

        /**
         * zlib's {@code compressBound} is the most libhdf5's encoder writes, but other deflate
         * encoders write more (zlib-ng's fastest level up to 9 bits a byte, before falling back
         * to stored blocks); twice the size plus 1 KiB bounds them all, and only memory.
         */
        @Override public long maxEncodedSize(long size) {
            return 2 * size + 1024;
        }

        /**
         * Inflates into one array of the limit's size (the chunk's, where the pipeline knows
         * it), stopping as soon as the stream would give a byte more.
         */
        @Override public byte[] decode(byte[] chunk, int elementSize, int limit) {
            Inflater inflater = new Inflater();
            try {
                inflater.setInput(chunk);
                byte[] out = new byte[limit];
                int length = 0;
                while (!inflater.finished()) {
                    int n = length < limit ? inflater.inflate(out, length, limit - length)
                            : inflater.inflate(new byte[1]);
                    if (length == limit && n > 0) {
                        throw new OutputPastLimitException(limit, "more than " + limit + " bytes");
                    }
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

        @Override public long maxEncodedSize(long size) {
            return size;
        }

        @Override public byte[] decode(byte[] chunk, int elementSize, int limit) {
            if (chunk.length > limit) {
                throw new OutputPastLimitException(limit, chunk.length + " bytes");
            }
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

        @Override public long maxEncodedSize(long size) {
            return size + 4;
        }

        @Override public byte[] decode(byte[] chunk, int elementSize, int limit) {
            if (chunk.length - 4 > limit) {
                throw new OutputPastLimitException(limit, chunk.length - 4 + " bytes");
            }
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

        /** Quire's encoder: literal runs add 1 byte in 32 (h5py's never writes more than in). */
        @Override public long maxEncodedSize(long size) {
            return size + size / 32 + 1;
        }

        /** Into one array of the limit's size; a stream that would write more is damaged. */
        @Override public byte[] decode(byte[] chunk, int elementSize, int limit) {
            return LzfCodec.decompress(chunk, limit);
        }
    }
}
