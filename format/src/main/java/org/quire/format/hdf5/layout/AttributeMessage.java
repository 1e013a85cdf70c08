package org.quire.format.hdf5.layout;

import java.nio.charset.StandardCharsets;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Attribute message (header message type 0x000C), specification section IV.A.2.m.
 *
 * <pre>
 * version 3:
 * +---------+-------+---------------+-------------------+--------------------+---------+
 * | version | flags | name size (2) | datatype size (2) | dataspace size (2) | charset |
 * +---------+-------+---------------+-------------------+--------------------+---------+
 * | name (with NUL) | datatype message | dataspace message | data                      |
 * +-----------------+------------------+-------------------+---------------------------+
 * version 1: no charset, one reserved byte instead of flags, and name, datatype and dataspace
 * each padded to a multiple of 8. Version 2: as 1 without padding.
 * </pre>
 */
public final class AttributeMessage {

    public static final int TYPE = 0x000C;

    /**
     * An attribute as the message holds it: {@code shape} (empty for a scalar) of elements of
     * {@code type}, {@code data} holding them in row-major order.
     */
    public record Content(String name, DatatypeDescription type, long[] shape, byte[] data) {
    }

    private AttributeMessage() {
    }

    public static byte[] encode(Content attribute) {
        byte[] name = attribute.name().getBytes(StandardCharsets.UTF_8);
        byte[] datatype = DatatypeMessage.encode(attribute.type());
        byte[] dataspace = new DataspaceMessage(attribute.shape(), null).encode();
        boolean ascii = name.length == attribute.name().length();
        return new LittleEndianWriter().putByte(3).putByte(0)
                .putShort(name.length + 1).putShort(datatype.length).putShort(dataspace.length)
                .putByte(ascii ? 0 : 1)
                .putBytes(name).putByte(0).putBytes(datatype).putBytes(dataspace)
                .putBytes(attribute.data()).toByteArray();
    }

    public static Content decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version < 1 || version > 3) {
            throw new UnsupportedFormatException(in.file(), "attribute message at offset " + at
                    + " has version " + version + "; supported: 1 to 3");
        }
        in.getUnsignedByte("flags");
        int nameSize = in.getUnsignedShort("name size");
        int datatypeSize = in.getUnsignedShort("datatype size");
        int dataspaceSize = in.getUnsignedShort("dataspace size");
        if (version == 3) {
            in.getUnsignedByte("name character set");
        }
        String name = in.getString(padded(version, nameSize), "name");
        DatatypeDescription type = DatatypeMessage.decode(in.slice(padded(version, datatypeSize), "datatype"));
        DataspaceMessage space = DataspaceMessage.decode(
                in.slice(padded(version, dataspaceSize), "dataspace"));
        long elements = 1;
        for (long dimension : space.dimensions()) {
            elements *= dimension;
            if (elements < 0 || elements * type.size() > in.remaining()) {
                throw in.corrupt(in.absolutePosition(), "data", "elements inside the message",
                        "shape needing more than " + in.remaining() + " bytes");
            }
        }
        byte[] data = in.getBytes((int) elements * type.size(), "data");
        return new Content(name, type, space.dimensions(), data);
    }

    private static int padded(int version, int size) {
        return version == 1 ? (size + 7) / 8 * 8 : size;
    }
}
