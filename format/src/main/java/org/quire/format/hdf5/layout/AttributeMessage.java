package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;

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
 * Elements of a variable-length string type are stored as {@link GlobalHeapId}s; decoding
 * resolves them to the strings' bytes.
 */
public final class AttributeMessage {

    public static final int TYPE = 0x000C;

    private AttributeMessage() {
    }

    private static final int FLAG_DATATYPE_SHARED = 0x01;
    private static final int FLAG_DATASPACE_SHARED = 0x02;

    /**
     * The message for {@code attribute}; {@code data} is its elements as stored (for a
     * variable-length string type, the global heap IDs of its strings).
     */
    public static byte[] encode(Attribute attribute, byte[] data) {
        byte[] name = attribute.name().getBytes(StandardCharsets.UTF_8);
        byte[] datatype = DatatypeMessage.encode(attribute.type());
        byte[] dataspace = new DataspaceMessage(attribute.shape(), null).encode();
        boolean ascii = name.length == attribute.name().length();
        return new LittleEndianWriter().putByte(3).putByte(0)
                .putShort(name.length + 1).putShort(datatype.length).putShort(dataspace.length)
                .putByte(ascii ? 0 : 1)
                .putBytes(name).putByte(0).putBytes(datatype).putBytes(dataspace)
                .putBytes(data).toByteArray();
    }

    /**
     * The attribute in {@code in}; committed datatypes and variable-length strings are
     * resolved through {@code references}.
     *
     * @throws UnsupportedFormatException its type is one Quire does not read; the message
     *                                    names the attribute ({@link #name} reads the name alone)
     */
    public static Attribute decode(LittleEndianReader in, StoredReferences references)
            throws IOException {
        long at = in.absolutePosition();
        Header header = Header.read(in);
        String name = header.name();
        try {
            Datatype type;
            LittleEndianReader datatype = in.slice(padded(header.version(),
                    header.datatypeSize()), "datatype");
            if ((header.flags() & FLAG_DATATYPE_SHARED) != 0) {
                type = references.committedDatatype(SharedMessage.objectHeaderAddress(datatype));
            } else {
                type = DatatypeMessage.decode(datatype);
            }
            if ((header.flags() & FLAG_DATASPACE_SHARED) != 0) {
                throw new UnsupportedFormatException(in.file(), "its dataspace is shared");
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
            if (type instanceof Datatype.VariableLengthStringType) {
                List<byte[]> strings = new ArrayList<>();
                for (int i = 0; i < elements; i++) {
                    GlobalHeapId id = GlobalHeapId.decode(in.file(), dataAddress, data,
                            i * GlobalHeapId.SIZE);
                    strings.add(id.isEmpty() ? new byte[0] : references.globalHeapObject(id));
                }
                return Attribute.ofStrings(name, type, space.dimensions(), strings);
            }
            return new Attribute(name, type, space.dimensions(), data);
        } catch (UnsupportedFormatException e) {
            throw new UnsupportedFormatException(in.file(), "attribute \"" + name
                    + "\" (message at offset " + at + "): " + e.detail());
        }
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
                throw new UnsupportedFormatException(in.file(), "attribute message at offset "
                        + at + " has version " + version + "; supported: 1 to 3");
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
