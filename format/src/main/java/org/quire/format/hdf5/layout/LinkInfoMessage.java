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
 * Quire stores links compactly (as link messages), so both addresses are undefined; a defined
 * fractal heap address means dense link storage.
 */
public record LinkInfoMessage(long fractalHeapAddress) {

    public static final int TYPE = 0x0002;

    public static LinkInfoMessage compact() {
        return new LinkInfoMessage(Addresses.UNDEFINED);
    }

    public boolean isDense() {
        return Addresses.isDefined(fractalHeapAddress);
    }

    public byte[] encode() {
        return new LittleEndianWriter().putByte(0).putByte(0)
                .putAddress(fractalHeapAddress).putAddress(Addresses.UNDEFINED).toByteArray();
    }

    public static LinkInfoMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 0) {
            throw new UnsupportedFormatException(in.file(), "link info message at offset " + at
                    + " has version " + version + "; supported: 0");
        }
        int flags = in.getUnsignedByte("flags");
        if ((flags & 1) != 0) {
            in.getLong("maximum creation index");
        }
        return new LinkInfoMessage(in.getAddress("fractal heap address"));
    }
}
