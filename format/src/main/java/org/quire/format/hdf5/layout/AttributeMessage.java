package org.quire.format.hdf5.layout;

import java.io.IOException;

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
 * flags: b0 the datatype is shared (a {@link SharedMessage} naming a committed datatype),
 * b1 the dataspace is shared (not supported).
 * </pre>
 * Elements of a variable-length string type are stored as {@link GlobalHeapId}s.
 */
public final class AttributeMessage {

    public static final int TYPE = 0x000C;

    private static final int FLAG_DATATYPE_SHARED = 0x01;
    private static final int FLAG_DATASPACE_SHARED = 0x02;

    /**
     * An attribute as the message holds it: {@code shape} (empty for a scalar) of elements of
     * {@code type}, {@code data} holding them as stored in row-major order (for a
     * variable-length string type, global heap IDs), starting at {@code dataAddress} (undefined
     * for an attribute not yet written).
     */
    public record Content(String name, DatatypeDescription type, long[] shape, byte[] data,
                          long dataAddress) {
    }

    private AttributeMessage() {
    }

    public static byte[] encode(Content attribute) {
        byte[] name = LosslessUtf8.encode(attribute.name());
        byte[] datatype = DatatypeMessage.encode(attribute.type());
        byte[] dataspace = new DataspaceMessage(attribute.shape(), null).encode();
        boolean ascii = name.length == attribute.name().length();
        return new LittleEndianWriter().putByte(3).putByte(0)
                .putShort(name.length + 1).putShort(datatype.length).putShort(dataspace.length)
                .putByte(ascii ? 0 : 1)
                .putBytes(name).putByte(0).putBytes(datatype).putBytes(dataspace)
                .putBytes(attribute.data()).toByteArray();
    }

    /**
     * The attribute in {@code in}; a committed datatype is resolved through
     * {@code references}.
     *
     * @throws UnsupportedFormatException its type is one Quire does not read; the exception
     *                                    names the attribute ({@link #name} reads the name alone)
     */
    public static Content decode(LittleEndianReader in, StoredReferences references)
            throws IOException {
        long at = in.absolutePosition();
        Header header = Header.read(in);
        String name = header.name();
        try {
            LittleEndianReader datatype = in.slice(padded(header.version(),
                    header.datatypeSize()), "datatype");
            DatatypeDescription type = (header.flags() & FLAG_DATATYPE_SHARED) != 0
                    ? references.committedDatatype(SharedMessage.objectHeaderAddress(datatype))
                    : DatatypeMessage.decode(datatype);
            if ((header.flags() & FLAG_DATASPACE_SHARED) != 0) {
                throw new UnsupportedFormatException(in.file(), "dataspace",
                        in.absolutePosition(), "a shared dataspace message",
                        "a dataspace stored in the attribute message");
            }
            DataspaceMessage space = DataspaceMessage.decode(
                    in.slice(padded(header.version(), header.dataspaceSize()), "dataspace"));
            long elements = 1;
            for (long dimension : space.dimensions()) {
                elements *= dimension;
                if (elements < 0 || elements * type.size() > in.remaining()) {
                    throw in.corrupt(in.absolutePosition(), "data", "elements inside the message",
                            "shape needing more than " + in.remaining() + " bytes");
                }
            }
            long dataAddress = in.absolutePosition();
            byte[] data = in.getBytes((int) elements * type.size(), "data");
            return new Content(name, type, space.dimensions(), data, dataAddress);
        } catch (UnsupportedFormatException e) {
            throw e.within("attribute \"" + name + "\" (message at offset " + at + ")");
        }
    }

    /**
     * The body {@code in} holds with its value replaced by {@code data}, the other bytes (name,
     * datatype, dataspace, a version-1 message's padding) as they were: what a writer puts in
     * place of an attribute message it may not grow (in a version-1 object header).
     *
     * @throws org.quire.format.CorruptFileException {@code data} does not fit where the value
     *                                               starts (the caller checked type and shape)
     */
    public static byte[] withData(LittleEndianReader in, byte[] data) throws IOException {
        long start = in.absolutePosition();
        byte[] body = in.duplicate().getBytes(in.remaining(), "attribute message");
        Header header = Header.read(in);
        in.skip(padded(header.version(), header.datatypeSize())
                + padded(header.version(), header.dataspaceSize()));
        int offset = (int) (in.absolutePosition() - start);
        if (offset + data.length > body.length) {
            throw in.corrupt(in.absolutePosition(), "data", data.length + " bytes of value",
                    (body.length - offset) + " bytes left in the message");
        }
        System.arraycopy(data, 0, body, offset, data.length);
        return body;
    }

    /** The name of the attribute in {@code in}, read without its type or value. */
    public static String name(LittleEndianReader in) throws IOException {
        return Header.read(in).name();
    }

    /** The fields before the datatype; the reader is left at the datatype. */
    private record Header(int version, int flags, String name, int datatypeSize,
                          int dataspaceSize) {
        static Header read(LittleEndianReader in) throws IOException {
            long at = in.absolutePosition();
            int version = in.getUnsignedByte("version");
            if (version < 1 || version > 3) {
                throw new UnsupportedFormatException(in.file(), "attribute message", at,
                        "version " + version, "versions 1 to 3");
            }
            int flags = in.getUnsignedByte("flags");
            int nameSize = in.getUnsignedShort("name size");
            int datatypeSize = in.getUnsignedShort("datatype size");
            int dataspaceSize = in.getUnsignedShort("dataspace size");
            if (version == 3) {
                in.getUnsignedByte("name character set");
            }
            String name = in.getString(padded(version, nameSize), "name");
            return new Header(version, version == 1 ? 0 : flags, name, datatypeSize,
                    dataspaceSize);
        }
    }

    private static int padded(int version, int size) {
        return version == 1 ? (size + 7) / 8 * 8 : size;
    }
}
