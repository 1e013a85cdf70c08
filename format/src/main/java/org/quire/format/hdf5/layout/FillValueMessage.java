package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Fill value message (header message type 0x0005), specification section IV.A.2.f, and the old
 * fill value message (type 0x0004, section IV.A.2.e) files of libhdf5 before 1.5 carry alone.
 *
 * <pre>
 * version 3:
 * +---------+--------+----------------------------+---------------------+
 * | version | flags  | size (4, if flags b5)      | value (if flags b5) |
 * +---------+--------+----------------------------+---------------------+
 * flags b0-1 space allocation time (1 early, 2 late, 3 incremental),
 *       b2-3 fill value write time (0 on allocation, 1 never, 2 if set by the user),
 *       b4 fill value undefined, b5 fill value defined
 * version 2: version, allocation time (1), write time (1), defined (1), [size (4), value]
 * version 1: as version 2, but size and value are always present (size 0: no value)
 * old fill value message (0x0004): size (4), value
 * </pre>
 *
 * Quire writes incremental allocation and "write if set", like libhdf5 for chunked datasets.
 * A {@code null} value means the library default: all bytes zero.
 */
public record FillValueMessage(byte[] value) {

    public static final int TYPE = 0x0005;
    /** The old fill value message, read only when a dataset has no fill value message. */
    public static final int OLD_TYPE = 0x0004;

    private static final int ALLOCATION_INCREMENTAL = 3;
    private static final int WRITE_IF_SET = 2 << 2;
    private static final int DEFINED = 1 << 5;

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(3).putByte(ALLOCATION_INCREMENTAL | WRITE_IF_SET | (value != null ? DEFINED : 0));
        if (value != null) {
            out.putInt(value.length).putBytes(value);
        }
        return out.toByteArray();
    }

    /** The fill value for elements of {@code elementSize} bytes: the stored value or zeros. */
    public byte[] valueOrZeros(int elementSize) {
        return value != null ? value : new byte[elementSize];
    }

    public static FillValueMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        boolean defined;
        if (version == 3) {
            defined = (in.getUnsignedByte("flags") & DEFINED) != 0;
        } else if (version == 2) {
            in.skip(2);
            defined = in.getUnsignedByte("fill value defined") != 0;
        } else if (version == 1) {
            in.skip(3);
            defined = true;
        } else {
            throw new UnsupportedFormatException(in.file(), "fill value message", at,
                    "version " + version, "versions 1 to 3");
        }
        return defined ? sizeAndValue(in) : new FillValueMessage(null);
    }

    /** The old fill value message (type 0x0004): size and value only. */
    public static FillValueMessage decodeOld(LittleEndianReader in) throws CorruptFileException {
        return sizeAndValue(in);
    }

    private static FillValueMessage sizeAndValue(LittleEndianReader in)
            throws CorruptFileException {
        int size = in.getCount(4, in.remaining(), "fill value size");
        return new FillValueMessage(size == 0 ? null : in.getBytes(size, "fill value"));
    }
}
