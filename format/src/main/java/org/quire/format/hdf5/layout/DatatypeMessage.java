package org.quire.format.hdf5.layout;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Datatype message (header message type 0x0003), specification section IV.A.2.d.
 *
 * <pre>
 * byte 0        1 2 3                4..7
 * +-------------+--------------------+-------------+-------------------------+
 * | class|vers. | class bit field    | size        | properties (per class)  |
 * +-------------+--------------------+-------------+-------------------------+
 * class bits 0-3, version bits 4-7.
 * fixed point (0): bit field b0 byte order (1 = big), b3 signed;
 *                  properties: bit offset (2), bit precision (2)
 * floating point (1): b0 byte order, b4-5 mantissa normalisation (2 = implied 1), b8-15 sign
 *                  bit; properties: bit offset (2), precision (2), exponent location (1),
 *                  exponent size (1), mantissa location (1), mantissa size (1), bias (4)
 * string (3):      b0-3 padding, b4-7 character set; no properties
 * compound (6):    b0-15 member count; per member (version 3): NUL-terminated name, byte offset
 *                  (1-4 bytes, enough for the compound size), member datatype message.
 *                  Versions 1 and 2 pad the name to a multiple of 8 and use a 4-byte offset;
 *                  version 1 adds 28 bytes of array dimension fields after the offset.
 * enumeration (8): b0-15 member count; properties: base (integer) datatype message, the
 *                  member names (NUL-terminated; padded to a multiple of 8 before version 3),
 *                  then the member values, one base-size integer each, in the same order.
 * variable-length (9): b0-3 type (0 sequence, 1 string), b4-7 padding, b8-11 character set;
 *                  properties: base datatype message (libhdf5: an unsigned byte for strings).
 *                  Elements are stored as length (4) and a global heap ID ({@link GlobalHeapId}).
 * array (10):      no bit field; properties: dimensionality (1), version 2 only: reserved (3);
 *                  dimension sizes (4 each), version 2 only: permutation indices (4 each);
 *                  base datatype message. The size is the base's times every dimension.
 * </pre>
 * Classes 2 (time), 4 (bitfield), 5 (opaque), 7 (reference) and variable-length sequences are
 * reported as unsupported, by name; so are arrays of variable-length strings.
 */
public final class DatatypeMessage {

    public static final int TYPE = 0x0003;

    private static final int CLASS_FIXED_POINT = 0;
    private static final int CLASS_FLOATING_POINT = 1;
    private static final int CLASS_STRING = 3;
    private static final int CLASS_COMPOUND = 6;
    private static final int CLASS_ENUMERATION = 8;
    private static final int CLASS_VARIABLE_LENGTH = 9;
    private static final int CLASS_ARRAY = 10;
    /** Array version libhdf5 writes with the latest format: no permutation indices. */
    private static final int ARRAY_VERSION = 3;
    private static final int MAXIMUM_ARRAY_RANK = 32;
    private static final int VARIABLE_LENGTH_STRING = 1;
    /** Versions of enumerations and compounds that store names without padding. */
    private static final int UNPADDED_NAMES_VERSION = 3;
    private static final String[] CLASS_NAMES = {"fixed-point", "floating-point", "time",
        "string", "bitfield", "opaque", "compound", "reference", "enumeration",
        "variable-length", "array"};
    private static final int ATOMIC_VERSION = 1;
    /** Floating-point bit field b4-5 = 2: the mantissa's leading 1 is implied. */
    private static final int MANTISSA_IMPLIED_ONE = 0x20;
    private static final int COMPOUND_VERSION = 3;
    /** The base type libhdf5 gives a variable-length string: an unsigned byte. */
    private static final DatatypeDescription.FixedPoint VARIABLE_LENGTH_STRING_BASE =
            new DatatypeDescription.FixedPoint(1, false, ByteOrder.LITTLE_ENDIAN);
    private static final String SUPPORTED_CLASSES = "fixed-point (all bits significant),"
            + " IEEE floating-point, string, compound, enumeration, array and variable-length"
            + " string classes";

    /** Widest integer read: one Java long. */
    private static final int MAXIMUM_INTEGER_SIZE = 8;
    /**
     * Bytes after a version-1 compound member's dimensionality: reserved (3), dimension
     * permutation (4), reserved (4), four dimension sizes (16).
     */
    private static final int VERSION_1_MEMBER_ARRAY_FIELDS = 27;

    private DatatypeMessage() {
    }

    public static byte[] encode(DatatypeDescription type) {
        LittleEndianWriter out = new LittleEndianWriter();
        encode(type, out);
        return out.toByteArray();
    }

    private static void encode(DatatypeDescription type, LittleEndianWriter out) {
        if (type instanceof DatatypeDescription.FixedPoint integer) {
            int order = integer.byteOrder() == ByteOrder.BIG_ENDIAN ? 1 : 0;
            out.putByte(CLASS_FIXED_POINT | ATOMIC_VERSION << 4)
                    .putByte(order | (integer.signed() ? 0x08 : 0)).putByte(0).putByte(0)
                    .putInt(integer.size())
                    .putShort(0).putShort(8 * integer.size());
        } else if (type instanceof DatatypeDescription.FloatingPoint real) {
            int order = real.byteOrder() == ByteOrder.BIG_ENDIAN ? 1 : 0;
            IeeeLayout ieee = IeeeLayout.of(real.size());
            out.putByte(CLASS_FLOATING_POINT | ATOMIC_VERSION << 4)
                    .putByte(order | MANTISSA_IMPLIED_ONE).putByte(ieee.signBit()).putByte(0)
                    .putInt(real.size())
                    .putShort(0).putShort(8 * real.size())
                    .putByte(ieee.exponentBit()).putByte(ieee.exponentBits())
                    .putByte(0).putByte(ieee.mantissaBits())
                    .putInt(ieee.exponentBias());
        } else if (type instanceof DatatypeDescription.FixedString string) {
            out.putByte(CLASS_STRING | ATOMIC_VERSION << 4)
                    .putByte(string.padding() | (string.utf8() ? 1 : 0) << 4)
                    .putByte(0).putByte(0).putInt(string.size());
        } else if (type instanceof DatatypeDescription.VariableLengthString string) {
            out.putByte(CLASS_VARIABLE_LENGTH | ATOMIC_VERSION << 4)
                    .putByte(VARIABLE_LENGTH_STRING | string.padding() << 4)
                    .putByte(string.utf8() ? 1 : 0).putByte(0).putInt(string.size());
            encode(VARIABLE_LENGTH_STRING_BASE, out);
        } else if (type instanceof DatatypeDescription.Enumeration enumeration) {
            int count = enumeration.members().size();
            out.putByte(CLASS_ENUMERATION | UNPADDED_NAMES_VERSION << 4)
                    .putByte(count).putByte(count >>> 8).putByte(0)
                    .putInt(enumeration.size());
            encode(enumeration.base(), out);
            for (DatatypeDescription.EnumMember member : enumeration.members()) {
                out.putBytes(member.name().getBytes(StandardCharsets.UTF_8)).putByte(0);
            }
            for (DatatypeDescription.EnumMember member : enumeration.members()) {
                out.putBytes(member.value());
            }
        } else if (type instanceof DatatypeDescription.Array array) {
            out.putByte(CLASS_ARRAY | ARRAY_VERSION << 4).putByte(0).putByte(0).putByte(0)
                    .putInt(array.size()).putByte(array.dimensions().size());
            for (long dimension : array.dimensions()) {
                out.putInt((int) dimension);
            }
            encode(array.base(), out);
        } else {
            DatatypeDescription.Compound compound = (DatatypeDescription.Compound) type;
            int count = compound.members().size();
            out.putByte(CLASS_COMPOUND | COMPOUND_VERSION << 4)
                    .putByte(count).putByte(count >>> 8).putByte(0)
                    .putInt(compound.size());
            int offsetWidth = offsetWidth(compound.size());
            for (DatatypeDescription.Member member : compound.members()) {
                out.putBytes(member.name().getBytes(StandardCharsets.UTF_8)).putByte(0);
                out.putUnsigned(member.offset(), offsetWidth);
                encode(member.type(), out);
            }
        }
    }

    /** Bit positions of IEEE 754 binary32 and binary64 as the floating-point properties give them. */
    private record IeeeLayout(int signBit, int exponentBit, int exponentBits, int mantissaBits,
                              int exponentBias) {
        static final IeeeLayout BINARY32 = new IeeeLayout(31, 23, 8, 23, 127);
        static final IeeeLayout BINARY64 = new IeeeLayout(63, 52, 11, 52, 1023);

        static IeeeLayout of(int size) {
            return size == 4 ? BINARY32 : BINARY64;
        }
    }

    /** Bytes of a version-3 member offset: enough for the compound's size. */
    private static int offsetWidth(int compoundSize) {
        return (63 - Long.numberOfLeadingZeros(Math.max(1, compoundSize))) / 8 + 1;
    }

    public static DatatypeDescription decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int classAndVersion = in.getUnsignedByte("class and version");
        int typeClass = classAndVersion & 0x0f;
        int version = classAndVersion >>> 4;
        int bits0 = in.getUnsignedByte("class bit field");
        int bits1 = in.getUnsignedByte("class bit field");
        in.getUnsignedByte("class bit field");
        int size = in.getCount(4, Integer.MAX_VALUE, "size");
        ByteOrder order = (bits0 & 1) != 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        switch (typeClass) {
            case CLASS_FIXED_POINT -> {
                int bitOffset = in.getUnsignedShort("bit offset");
                int precision = in.getUnsignedShort("bit precision");
                if (bitOffset != 0 || precision != 8 * size) {
                    throw unsupported(in, at, "integer with bit offset " + bitOffset
                            + " and precision " + precision + " in " + size + " bytes");
                }
                if (size < 1 || size > MAXIMUM_INTEGER_SIZE) {
                    throw unsupported(in, at, size + "-byte integer (1 to "
                            + MAXIMUM_INTEGER_SIZE + " bytes are read)");
                }
                return new DatatypeDescription.FixedPoint(size, (bits0 & 0x08) != 0, order);
            }
            case CLASS_FLOATING_POINT -> {
                if (size != 4 && size != 8) {
                    throw unsupported(in, at, size + "-byte floating point");
                }
                int bitOffset = in.getUnsignedShort("bit offset");
                int precision = in.getUnsignedShort("bit precision");
                int exponentLocation = in.getUnsignedByte("exponent location");
                int exponentSize = in.getUnsignedByte("exponent size");
                int mantissaLocation = in.getUnsignedByte("mantissa location");
                int mantissaSize = in.getUnsignedByte("mantissa size");
                int bias = in.getInt("exponent bias");
                IeeeLayout found = new IeeeLayout(bits1, exponentLocation, exponentSize,
                        mantissaSize, bias);
                if (!found.equals(IeeeLayout.of(size)) || bitOffset != 0
                        || precision != 8 * size || mantissaLocation != 0
                        || (bits0 & 0x30) != MANTISSA_IMPLIED_ONE) {
                    throw unsupported(in, at, "non-IEEE floating point " + found);
                }
                return new DatatypeDescription.FloatingPoint(size, order);
            }
            case CLASS_STRING -> {
                int padding = bits0 & 0x0f;
                if (padding > 2) {
                    throw in.corrupt(at + 1, "string padding", "0, 1 or 2",
                            Integer.toString(padding));
                }
                return new DatatypeDescription.FixedString(size, padding, (bits0 >>> 4) == 1);
            }
            case CLASS_COMPOUND -> {
                return decodeCompound(in, version, bits0 | bits1 << 8, size);
            }
            case CLASS_ENUMERATION -> {
                return decodeEnumeration(in, at, version, bits0 | bits1 << 8, size);
            }
            case CLASS_VARIABLE_LENGTH -> {
                DatatypeDescription base = decode(in);
                if ((bits0 & 0x0f) != VARIABLE_LENGTH_STRING) {
                    throw unsupported(in, at, "variable-length sequence of " + describe(base));
                }
                int padding = bits0 >>> 4;
                if (padding > 2 || size != DatatypeDescription.VariableLengthString.STORED_SIZE) {
                    throw in.corrupt(at, "variable-length string", "padding 0..2 and size "
                            + DatatypeDescription.VariableLengthString.STORED_SIZE,
                            "padding " + padding + ", size " + size);
                }
                return new DatatypeDescription.VariableLengthString(padding, (bits1 & 0x0f) == 1);
            }
            case CLASS_ARRAY -> {
                return decodeArray(in, at, version, size);
            }
            default -> throw unsupported(in, at, (typeClass < CLASS_NAMES.length
                    ? CLASS_NAMES[typeClass] : "unknown") + " datatype (class " + typeClass
                    + ")");
        }
    }

    private static DatatypeDescription decodeCompound(LittleEndianReader in, int version,
                                                      int count, int size)
            throws CorruptFileException, UnsupportedFormatException {
        List<DatatypeDescription.Member> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int nameStart = in.position();
            StringBuilder name = new StringBuilder();
            for (int b = in.getUnsignedByte("member name"); b != 0;
                 b = in.getUnsignedByte("member name")) {
                name.append((char) b);
            }
            int offset;
            if (version >= 3) {
                offset = (int) in.getUnsigned(offsetWidth(size), "member byte offset");
            } else {
                int nameLength = in.position() - nameStart;
                in.skip((8 - nameLength % 8) % 8);
                offset = in.getInt("member byte offset");
                if (version == 1) {
                    long dimensionsAt = in.absolutePosition();
                    int dimensions = in.getUnsignedByte("member dimensionality");
                    in.skip(VERSION_1_MEMBER_ARRAY_FIELDS);
                    if (dimensions != 0) {
                        throw unsupported(in, dimensionsAt, "array member \""
                                + utf8(name) + "\" (" + dimensions + " dimensions) of a"
                                + " version-1 compound");
                    }
                }
            }
            String decoded = utf8(name);
            long typeAt = in.absolutePosition();
            DatatypeDescription type = decode(in);
            if (type instanceof DatatypeDescription.VariableLengthString) {
                throw unsupported(in, typeAt, "variable-length string member \"" + decoded
                        + "\" of a compound");
            }
            members.add(new DatatypeDescription.Member(decoded, offset, type));
        }
        return new DatatypeDescription.Compound(size, List.copyOf(members));
    }

    private static DatatypeDescription decodeArray(LittleEndianReader in, long at, int version,
                                                   int size)
            throws CorruptFileException, UnsupportedFormatException {
        if (version != 2 && version != ARRAY_VERSION) {
            throw unsupported(in, at, "array datatype version " + version + " (2 and 3 read)");
        }
        int rank = in.getUnsignedByte("array dimensionality");
        if (rank < 1 || rank > MAXIMUM_ARRAY_RANK) {
            throw in.corrupt(at + 8, "array dimensionality", "1.." + MAXIMUM_ARRAY_RANK,
                    Integer.toString(rank));
        }
        if (version == 2) {
            in.skip(3);
        }
        List<Long> dimensions = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            long dimensionAt = in.absolutePosition();
            long dimension = in.getInt("array dimension size") & 0xffffffffL;
            if (dimension < 1) {
                throw in.corrupt(dimensionAt, "array dimension size", "at least 1", "0");
            }
            dimensions.add(dimension);
        }
        if (version == 2) {
            in.skip(4 * rank); // permutation indices: libhdf5 never implemented any but identity
        }
        long baseAt = in.absolutePosition();
        DatatypeDescription base = decode(in);
        if (base instanceof DatatypeDescription.VariableLengthString) {
            throw unsupported(in, baseAt, "array of variable-length strings");
        }
        long bytes = base.size();
        for (int d = 0; d < rank && bytes <= Integer.MAX_VALUE; d++) {
            bytes *= dimensions.get(d); // both below 2^32: no overflow
        }
        if (bytes != size) {
            throw in.corrupt(at + 4, "array size", "the base's " + base.size() + " bytes times "
                    + "the dimensions " + dimensions, size + " bytes");
        }
        return new DatatypeDescription.Array(base, List.copyOf(dimensions));
    }

    private static String utf8(StringBuilder latin1) {
        return new String(latin1.toString().getBytes(StandardCharsets.ISO_8859_1),
                StandardCharsets.UTF_8);
    }

    private static DatatypeDescription decodeEnumeration(LittleEndianReader in, long at,
                                                         int version, int count, int size)
            throws CorruptFileException, UnsupportedFormatException {
        DatatypeDescription base = decode(in);
        if (!(base instanceof DatatypeDescription.FixedPoint integer) || integer.size() != size) {
            throw in.corrupt(at, "enumeration", "a base integer type of " + size + " bytes",
                    describe(base));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(nulTerminated(in, version < UNPADDED_NAMES_VERSION, "member name"));
        }
        List<DatatypeDescription.EnumMember> members = new ArrayList<>();
        for (String name : names) {
            members.add(new DatatypeDescription.EnumMember(name,
                    in.getBytes(size, "member value")));
        }
        return new DatatypeDescription.Enumeration(integer, List.copyOf(members));
    }

    /** A NUL-terminated UTF-8 name, {@code padded} to a multiple of 8 bytes with its NUL. */
    private static String nulTerminated(LittleEndianReader in, boolean padded, String field)
            throws CorruptFileException {
        int start = in.position();
        ByteArrayOutputStream name = new ByteArrayOutputStream();
        for (int b = in.getUnsignedByte(field); b != 0; b = in.getUnsignedByte(field)) {
            name.write(b);
        }
        if (padded) {
            int length = in.position() - start;
            in.skip((8 - length % 8) % 8);
        }
        return name.toString(StandardCharsets.UTF_8);
    }

    /** {@code type} in a few words for messages ("4-byte signed integer"), not a record dump. */
    private static String describe(DatatypeDescription type) {
        if (type instanceof DatatypeDescription.FixedPoint integer) {
            return integer.size() + "-byte " + (integer.signed() ? "signed" : "unsigned")
                    + " integer";
        }
        if (type instanceof DatatypeDescription.FloatingPoint real) {
            return real.size() + "-byte floating point";
        }
        if (type instanceof DatatypeDescription.FixedString string) {
            return string.size() + "-byte string";
        }
        if (type instanceof DatatypeDescription.Compound compound) {
            return compound.size() + "-byte compound";
        }
        if (type instanceof DatatypeDescription.Enumeration enumeration) {
            return enumeration.base().size() + "-byte enumeration";
        }
        if (type instanceof DatatypeDescription.Array array) {
            return "array " + array.dimensions() + " of " + describe(array.base());
        }
        return "variable-length string";
    }

    private static UnsupportedFormatException unsupported(LittleEndianReader in, long at,
                                                          String what) {
        return new UnsupportedFormatException(in.file(), "datatype message", at, what,
                SUPPORTED_CLASSES);
    }
}
