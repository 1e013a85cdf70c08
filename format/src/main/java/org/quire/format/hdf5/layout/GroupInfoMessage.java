package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Group info message (header message type 0x000A), specification section IV.A.2.k.
 *
 * <pre>
 * +---------+-------+----------------------------------------------+-----------------------------+
 * | version | flags | max compact (2), min dense (2) (if flags b0) | est. entries (2), est. name |
 * |   (0)   |       |                                              | length (2) (if flags b1)    |
 * +---------+-------+----------------------------------------------+-----------------------------+
 * </pre>
 *
 * Quire writes the default (flags 0): libhdf5's thresholds of 8 compact / 6 dense links. Readers
 * need nothing from it; deleting a link from a dense group needs the minimum for dense storage.
 */
public final class GroupInfoMessage {

    public static final int TYPE = 0x000A;

    private GroupInfoMessage() {
    }

    /** libhdf5's minimum for dense storage when the message stores none. */
    public static final int DEFAULT_MIN_DENSE = 6;

    public static byte[] encodeDefault() {
        return new byte[] {0, 0};
    }

    /**
     * The fewest links a group keeps in dense storage (libhdf5 moves them back into the header
     * below it): the stored value when flags bit 0 is set, otherwise {@link #DEFAULT_MIN_DENSE}.
     */
    public static int minDense(LittleEndianReader in) throws CorruptFileException {
        in.getUnsignedByte("version");
        int flags = in.getUnsignedByte("flags");
        if ((flags & 1) == 0) {
            return DEFAULT_MIN_DENSE;
        }
        in.getUnsignedShort("maximum compact value");
        return in.getUnsignedShort("minimum dense value");
    }
}
