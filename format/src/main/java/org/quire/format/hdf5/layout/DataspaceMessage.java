package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Dataspace message (header message type 0x0001), specification section IV.A.2.b.
 *
 * <pre>
 * version 2:
 * +---------+-------------+--------+--------+-----------------------+---------------------------+
 * | version | rank (dims) | flags  | type   | rank x size (lengths) | rank x max size (if b0)   |
 * +---------+-------------+--------+--------+-----------------------+---------------------------+
 * version 1: version, rank, flags, 5 reserved bytes, sizes, max sizes (if flags b0); a rank 0
 * (scalar) or a permutation index (flags b1, never written by libhdf5) is not written
 * type: 0 scalar, 1 simple, 2 null. A max size of all ones is "unlimited"; any other size or
 * max size must be below 2^63.
 * </pre>
 *
 * A rank of 0 is a scalar (one element). The encoding of a given rank has a fixed length, which
 * lets a writer rewrite the current sizes in place when a dataset is extended.
 */
public record DataspaceMessage(long[] dimensions, long[] maxDimensions) {

    public static final int TYPE = 0x0001;
    /** The maximum size that means "can grow without bound". */
    public static final long UNLIMITED = -1L;

    private static final int MAX_RANK = 32;

    public int rank() {
        return dimensions.length;
    }

    /** Version 2, what Quire writes. */
    public byte[] encode() {
        return encode(2);
    }

    /**
     * Version {@code version} (1: in libhdf5's version-1 object headers; 2), the maximum sizes
     * stored unless they are null or the rank is 0. Both have a fixed length for a given rank:
     * a writer rewrites the sizes of a stored message in place in its own version.
     */
    public byte[] encode(int version) {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("dataspace message version " + version);
        }
        LittleEndianWriter out = new LittleEndianWriter();
        boolean withMax = maxDimensions != null && rank() > 0;
        out.putByte(version).putByte(rank()).putByte(withMax ? 1 : 0);
        if (version == 1) {
            out.putBytes(new byte[5]);
        } else {
            out.putByte(rank() == 0 ? 0 : 1);
        }
        for (long dimension : dimensions) {
            out.putLength(dimension);
        }
        if (withMax) {
            for (long max : maxDimensions) {
                out.putLength(max);
            }
        }
        return out.toByteArray();
    }

    public static DataspaceMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 1 && version != 2) {
            throw new UnsupportedFormatException(in.file(), "dataspace message", at,
                    "version " + version, "versions 1 and 2");
        }
        int rank = in.getCount(1, MAX_RANK, "dimensionality");
        int flags = in.getUnsignedByte("flags");
        if (version == 1) {
            in.skip(5);
        } else {
            int type = in.getUnsignedByte("dataspace type");
            if (type == 2) {
                throw new UnsupportedFormatException(in.file(), "dataspace message", at,
                        "dataspace type 2 (a null dataspace: no elements)", "types 0 (scalar) and 1 (simple)");
            }
        }
        long[] dimensions = new long[rank];
        for (int i = 0; i < rank; i++) {
            long fieldAt = in.absolutePosition();
            dimensions[i] = in.getLength("dimension size");
            // Sizes are counted in signed longs everywhere; libhdf5 caps them below 2^63 too.
            if (dimensions[i] < 0) {
                throw in.corrupt(fieldAt, "dimension size", "below 2^63",
                        Long.toUnsignedString(dimensions[i]));
            }
        }
        long[] max = dimensions.clone();
        if ((flags & 1) != 0) {
            for (int i = 0; i < rank; i++) {
                long fieldAt = in.absolutePosition();
                max[i] = in.getLength("dimension maximum size");
                if (max[i] != UNLIMITED && max[i] < dimensions[i]) {
                    throw in.corrupt(fieldAt, "dimension maximum size", "unlimited (all ones)"
                            + " or from the size " + dimensions[i] + " to below 2^63",
                            Long.toUnsignedString(max[i]));
                }
            }
        }
        return new DataspaceMessage(dimensions, max);
    }
}
