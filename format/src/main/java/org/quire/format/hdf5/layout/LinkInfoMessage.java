package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Link info message (header message type 0x0002), specification section IV.A.2.c: present in
 * every new-style group.
 *
 * <pre>
 * +---------+-------+------------------------------------+------------------------+
 * | version | flags | max creation index (8, if flags b0) | fractal heap address   |
 * +---------+-------+------------------------------------+------------------------+
 * | v2 B-tree name index address | creation order index address (if flags b1)      |
 * +------------------------------+--------------------------------------------------+
 * </pre>
 *
 * Quire writes links compactly (as link messages), so all addresses are undefined; a defined
 * fractal heap address means dense link storage: link messages in the heap, indexed by a
 * version-2 B-tree of name hashes and, when creation order is indexed, one of creation order.
 */
public record LinkInfoMessage(long fractalHeapAddress, long nameIndexAddress,
                              long creationOrderIndexAddress) {

    public static final int TYPE = 0x0002;

    private static final int FLAG_CREATION_ORDER_TRACKED = 0x01;
    private static final int FLAG_CREATION_ORDER_INDEXED = 0x02;

    public static LinkInfoMessage compact() {
        return new LinkInfoMessage(Addresses.UNDEFINED, Addresses.UNDEFINED, Addresses.UNDEFINED);
    }

    public boolean isDense() {
        return Addresses.isDefined(fractalHeapAddress);
    }

    public byte[] encode() {
        return new LittleEndianWriter().putByte(0).putByte(0)
                .putAddress(fractalHeapAddress).putAddress(nameIndexAddress).toByteArray();
    }

    /**
     * The message {@code body} (as stored) with every address undefined, flags and maximum
     * creation index kept: the group's links are to be stored compactly from then on. The
     * length does not change.
     */
    public static byte[] withoutDenseStorage(byte[] body) {
        byte[] compact = body.clone();
        int addresses = 2 + ((body[1] & FLAG_CREATION_ORDER_TRACKED) != 0 ? 8 : 0);
        java.util.Arrays.fill(compact, addresses, compact.length, (byte) 0xff);
        return compact;
    }

    /** Whether the message {@code body} (as stored) has its group number new links. */
    public static boolean tracksCreationOrder(byte[] body) {
        return (body[1] & FLAG_CREATION_ORDER_TRACKED) != 0;
    }

    public static LinkInfoMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 0) {
            throw new UnsupportedFormatException(in.file(), "link info message", at,
                    "version " + version, "version 0");
        }
        int flags = in.getUnsignedByte("flags");
        if ((flags & FLAG_CREATION_ORDER_TRACKED) != 0) {
            in.getLong("maximum creation index");
        }
        long heap = in.getAddress("fractal heap address");
        long names = in.getAddress("v2 B-tree name index address");
        long creationOrder = (flags & FLAG_CREATION_ORDER_INDEXED) != 0
                ? in.getAddress("v2 B-tree creation order index address") : Addresses.UNDEFINED;
        return new LinkInfoMessage(heap, names, creationOrder);
    }
}
