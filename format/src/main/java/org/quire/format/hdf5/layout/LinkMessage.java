package org.quire.format.hdf5.layout;


import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Link message (header message type 0x0006), specification section IV.A.2.g: one named link of a
 * group stored compactly in the group's object header.
 *
 * <pre>
 * +---------+-------+---------------------+----------------------+------------------+
 * | version | flags | link type (1, b3)   | creation order (8,b2)| charset (1, b4)  |
 * |   (1)   |       |                     |                      |                  |
 * +---------+-------+---------------------+----------------------+------------------+
 * | name length (1/2/4/8 bytes: flags b0-1) | name (no NUL) | link information       |
 * +-----------------------------------------+---------------+------------------------+
 * link type 0 (hard, the default): information is the object header address;
 * 1 (soft) and 64 (external): a 2-byte length and that many bytes.
 * </pre>
 *
 * @param type           0 hard, 1 soft, 64 external
 * @param address        the target object header, for hard links; undefined otherwise
 * @param softLinkTarget the path a soft link names (absolute, or relative to its group); null
 *                       for other links
 */
public record LinkMessage(String name, int type, long address, String softLinkTarget) {

    public static final int TYPE = 0x0006;
    public static final int HARD = 0;
    public static final int SOFT = 1;
    /** Link type 64: an object in another file (file name and path in the link). */
    public static final int EXTERNAL = 64;

    private static final int TYPE_PRESENT = 0x08;
    private static final int CREATION_ORDER_PRESENT = 0x04;
    private static final int CHARSET_PRESENT = 0x10;

    /** A hard or external link (external: its file and path are not kept). */
    public LinkMessage(String name, int type, long address) {
        this(name, type, address, null);
    }

    public static LinkMessage hard(String name, long address) {
        return new LinkMessage(name, HARD, address);
    }

    /** A soft link to {@code target}. */
    public static LinkMessage soft(String name, String target) {
        return new LinkMessage(name, SOFT, Addresses.UNDEFINED, target);
    }

    public byte[] encode() {
        byte[] encodedName = LosslessUtf8.encode(name);
        boolean ascii = encodedName.length == name.length();
        int lengthCode = encodedName.length < 256 ? 0 : 1;
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(1).putByte(lengthCode | (ascii ? 0 : CHARSET_PRESENT));
        if (!ascii) {
            out.putByte(1);
        }
        out.putUnsigned(encodedName.length, 1 << lengthCode).putBytes(encodedName);
        return out.putAddress(address).toByteArray();
    }

    public static LinkMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 1) {
            throw new UnsupportedFormatException(in.file(), "link message", at,
                    "version " + version, "version 1");
        }
        int flags = in.getUnsignedByte("flags");
        int type = (flags & TYPE_PRESENT) != 0 ? in.getUnsignedByte("link type") : HARD;
        if ((flags & CREATION_ORDER_PRESENT) != 0) {
            in.getLong("creation order");
        }
        if ((flags & CHARSET_PRESENT) != 0) {
            in.getUnsignedByte("link name character set");
        }
        int nameLength = in.getCount(1 << (flags & 3), in.remaining(), "length of link name");
        String name = LosslessUtf8.decode(in.getBytes(nameLength, "link name"));
        if (type == SOFT) {
            int length = in.getUnsignedShort("soft link value length");
            return soft(name, LosslessUtf8.decode(in.getBytes(length, "soft link value")));
        }
        long address = type == HARD ? in.getAddress("object header address") : Addresses.UNDEFINED;
        return new LinkMessage(name, type, address);
    }
}
