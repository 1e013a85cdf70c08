package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Attribute info message (header message type 0x0015), specification section IV.A.2.v: present
 * when an object tracks attribute creation order or stores attributes densely.
 *
 * <pre>
 * +---------+-------+---------------------------------------+----------------------------+
 * | version | flags | max creation index (2, if flags b0)    | fractal heap address (O)   |
 * |   (0)   |       |                                       |                            |
 * +---------+-------+---------------------------------------+----------------------------+
 * | name index v2 B-tree address (O) | creation order index address (O, if flags b1)      |
 * +----------------------------------+----------------------------------------------------+
 * </pre>
 *
 * libhdf5 writes it into a version-2 object header with the header's first attribute, and
 * counts the attributes of such a header only through it (without it h5py's {@code
 * len(attrs)} is 0); Quire writes it likewise, compact: version 0, no flags, both addresses
 * undefined. When reading, a defined fractal heap address means the object's attributes are
 * stored densely: attribute messages in the heap, indexed by a version-2 B-tree of name hashes
 * and, when creation order is indexed, one of creation order.
 */
public record AttributeInfoMessage(long fractalHeapAddress, long nameIndexAddress,
                                   long creationOrderIndexAddress) {

    public static final int TYPE = 0x0015;

    private static final int FLAG_CREATION_ORDER_TRACKED = 0x01;
    private static final int FLAG_CREATION_ORDER_INDEXED = 0x02;

    public boolean isDense() {
        return Addresses.isDefined(fractalHeapAddress);
    }

    /** The message of an object whose attributes are all in its header, untracked. */
    public static byte[] encodeCompact() {
        return new LittleEndianWriter(2 + 2 * Addresses.SIZE_OF_OFFSETS).putByte(0).putByte(0)
                .putAddress(Addresses.UNDEFINED).putAddress(Addresses.UNDEFINED).toByteArray();
    }

    public static AttributeInfoMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 0) {
            throw new UnsupportedFormatException(in.file(), "attribute info message", at,
                    "version " + version, "version 0");
        }
        int flags = in.getUnsignedByte("flags");
        if ((flags & FLAG_CREATION_ORDER_TRACKED) != 0) {
            in.getUnsignedShort("maximum creation index");
        }
        long heap = in.getAddress("fractal heap address");
        long names = in.getAddress("v2 B-tree name index address");
        long creationOrder = (flags & FLAG_CREATION_ORDER_INDEXED) != 0
                ? in.getAddress("v2 B-tree creation order index address") : Addresses.UNDEFINED;
        return new AttributeInfoMessage(heap, names, creationOrder);
    }
}
