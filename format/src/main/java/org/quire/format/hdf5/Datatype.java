package org.quire.format.hdf5;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.quire.format.hdf5.layout.DatatypeDescription;

/**
 * The type of one element of a dataset or attribute, as the HDF5 datatype message describes it.
 * Quire handles the classes below; any other class in a file (references, variable-length
 * sequences, opaque, bitfield, time) is reported as unsupported, by name.
 */
public sealed interface Datatype {

    IntegerType INT8 = new IntegerType(1, true, ByteOrder.LITTLE_ENDIAN);
    IntegerType UINT8 = new IntegerType(1, false, ByteOrder.LITTLE_ENDIAN);
    IntegerType INT16 = new IntegerType(2, true, ByteOrder.LITTLE_ENDIAN);
    IntegerType UINT16 = new IntegerType(2, false, ByteOrder.LITTLE_ENDIAN);
    IntegerType INT32 = new IntegerType(4, true, ByteOrder.LITTLE_ENDIAN);
    IntegerType UINT32 = new IntegerType(4, false, ByteOrder.LITTLE_ENDIAN);
    IntegerType INT64 = new IntegerType(8, true, ByteOrder.LITTLE_ENDIAN);
    IntegerType UINT64 = new IntegerType(8, false, ByteOrder.LITTLE_ENDIAN);
    FloatType FLOAT32 = new FloatType(4, ByteOrder.LITTLE_ENDIAN);
    FloatType FLOAT64 = new FloatType(8, ByteOrder.LITTLE_ENDIAN);

    /** Bytes of one element. */
    int size();

    /** Byte order of multi-byte numbers in this type ({@code LITTLE_ENDIAN} for strings). */
    ByteOrder byteOrder();

    /**
     * A two's-complement or unsigned integer of 1 to 8 bytes, all bits significant (libhdf5
     * writes any size: a 3-byte integer is a standard type given another size).
     */
    record IntegerType(int size, boolean signed, ByteOrder byteOrder) implements Datatype {
        public IntegerType {
            if (size < 1 || size > 8) {
                throw new IllegalArgumentException("integer size must be 1 to 8: " + size);
            }
            Objects.requireNonNull(byteOrder, "byteOrder");
        }

        public IntegerType withByteOrder(ByteOrder order) {
            return new IntegerType(size, signed, order);
        }

        /**
         * The element at {@code offset} of {@code bytes} widened to long: sign-extended when
         * signed; an unsigned 64-bit value keeps its bits.
         */
        public long decode(byte[] bytes, int offset) {
            boolean big = byteOrder == ByteOrder.BIG_ENDIAN;
            long value = 0;
            for (int b = 0; b < size; b++) {
                value = value << 8 | (bytes[offset + (big ? b : size - 1 - b)] & 0xffL);
            }
            int unused = 64 - 8 * size;
            return signed ? value << unused >> unused : value;
        }

        /** {@code value} as one element, truncated to {@code size} bytes. */
        public byte[] encode(long value) {
            boolean big = byteOrder == ByteOrder.BIG_ENDIAN;
            byte[] out = new byte[size];
            for (int b = 0; b < size; b++) {
                out[big ? size - 1 - b : b] = (byte) (value >>> 8 * b);
            }
            return out;
        }
    }

    /** An IEEE 754 binary32 ({@code size} 4) or binary64 ({@code size} 8) number. */
    record FloatType(int size, ByteOrder byteOrder) implements Datatype {
        public FloatType {
            if (size != 4 && size != 8) {
                throw new IllegalArgumentException("float size must be 4 or 8: " + size);
            }
            Objects.requireNonNull(byteOrder, "byteOrder");
        }

        public FloatType withByteOrder(ByteOrder order) {
            return new FloatType(size, order);
        }
    }

    /** How a fixed-length string shorter than its field is terminated (datatype padding type). */
    enum StringPadding { NULL_TERMINATED, NULL_PADDED, SPACE_PADDED }

    /** A fixed-length string of {@code size} bytes in ASCII or UTF-8. */
    record StringType(int size, StringPadding padding, boolean utf8) implements Datatype {
        public StringType {
            if (size < 1) {
                throw new IllegalArgumentException("string size must be positive: " + size);
            }
            Objects.requireNonNull(padding, "padding");
        }

        /** A NUL-padded ASCII string of {@code size} bytes, as numpy's {@code S<size>}. */
        public static StringType ascii(int size) {
            return new StringType(size, StringPadding.NULL_PADDED, false);
        }

        @Override
        public ByteOrder byteOrder() {
            return ByteOrder.LITTLE_ENDIAN;
        }

        /** {@code text} as this type's {@link #size()} bytes; fails if it does not fit. */
        public byte[] encode(String text) {
            byte[] raw = text.getBytes(utf8 ? StandardCharsets.UTF_8 : StandardCharsets.US_ASCII);
            int room = padding == StringPadding.NULL_TERMINATED ? size - 1 : size;
            if (raw.length > room) {
                throw new IllegalArgumentException("\"" + text + "\" needs " + raw.length
                        + " bytes; the string type holds " + room);
            }
            byte[] out = new byte[size];
            System.arraycopy(raw, 0, out, 0, raw.length);
            if (padding == StringPadding.SPACE_PADDED) {
                Arrays.fill(out, raw.length, size, (byte) ' ');
            }
            return out;
        }

        /**
         * The bytes of the string in {@code size} bytes at {@code offset}, as h5py returns them:
         * trailing padding (NULs, or spaces when space-padded) removed, embedded NULs kept.
         */
        public byte[] decodeBytes(byte[] bytes, int offset) {
            int end = offset + size;
            byte pad = padding == StringPadding.SPACE_PADDED ? (byte) ' ' : 0;
            while (end > offset && bytes[end - 1] == pad) {
                end--;
            }
            return Arrays.copyOfRange(bytes, offset, end);
        }

        /** The text in {@code size} bytes at {@code offset} ({@link #decodeBytes}), decoded. */
        public String decode(byte[] bytes, int offset) {
            return new String(decodeBytes(bytes, offset), utf8 ? StandardCharsets.UTF_8
                    : StandardCharsets.US_ASCII);
        }
    }

    /**
     * A string of any length in ASCII or UTF-8 (HDF5 variable-length string): each element is
     * stored as its length and the global heap object holding its bytes, {@code size()} 16
     * bytes. h5py writes every Python {@code str} this way, as UTF-8.
     */
    record VariableLengthStringType(StringPadding padding, boolean utf8) implements Datatype {
        /** Bytes of one stored element: length (4), collection address (8), object index (4). */
        public static final int STORED_SIZE = DatatypeDescription.VariableLengthString.STORED_SIZE;

        /** What h5py writes for a Python {@code str}: NUL-terminated UTF-8. */
        public static final VariableLengthStringType UTF8 =
                new VariableLengthStringType(StringPadding.NULL_TERMINATED, true);

        public VariableLengthStringType {
            Objects.requireNonNull(padding, "padding");
        }

        @Override
        public int size() {
            return STORED_SIZE;
        }

        @Override
        public ByteOrder byteOrder() {
            return ByteOrder.LITTLE_ENDIAN;
        }
    }

    /** One named value of an enumeration. */
    record EnumMember(String name, long value) {
        public EnumMember {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * Named values of an integer type (HDF5 enumeration); elements are stored as the integer.
     * h5py stores numpy's {@code bool} as {@link #BOOLEAN}.
     */
    record EnumType(IntegerType base, List<EnumMember> members) implements Datatype {
        /** h5py's bool: a signed byte, FALSE = 0, TRUE = 1. */
        public static final EnumType BOOLEAN = new EnumType(INT8, List.of(
                new EnumMember("FALSE", 0), new EnumMember("TRUE", 1)));

        public EnumType {
            Objects.requireNonNull(base, "base");
            members = List.copyOf(members);
            if (members.isEmpty()) {
                throw new IllegalArgumentException("an enumeration needs at least one member");
            }
        }

        @Override
        public int size() {
            return base.size();
        }

        @Override
        public ByteOrder byteOrder() {
            return base.byteOrder();
        }

        /** The name of {@code value}, or null if no member has it. */
        public String nameOf(long value) {
            for (EnumMember member : members) {
                if (member.value() == value) {
                    return member.name();
                }
            }
            return null;
        }
    }

    /**
     * An array of {@code dimensions} (row-major, each at least 1) elements of {@code base} as one
     * element: how h5py stores a compound member of a sub-array dtype such as
     * {@code ("hash", "u1", (32,))}.
     */
    record ArrayType(Datatype base, List<Long> dimensions) implements Datatype {
        public ArrayType {
            Objects.requireNonNull(base, "base");
            dimensions = List.copyOf(dimensions);
            if (dimensions.isEmpty() || dimensions.size() > 32) {
                throw new IllegalArgumentException("an array type has 1 to 32 dimensions, not "
                        + dimensions.size());
            }
            if (base instanceof VariableLengthStringType) {
                throw new IllegalArgumentException("arrays of variable-length strings are not "
                        + "supported");
            }
            long bytes = base.size();
            for (long dimension : dimensions) {
                if (dimension < 1 || dimension > 0xffffffffL) {
                    throw new IllegalArgumentException("array dimension " + dimension
                            + " outside 1..2^32-1");
                }
                bytes *= dimension;
                if (bytes > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("an array type of more than "
                            + Integer.MAX_VALUE + " bytes");
                }
            }
        }

        /** {@code dimensions} elements of {@code base}: {@code new ArrayType(UINT8, 32)}. */
        public ArrayType(Datatype base, long... dimensions) {
            this(base, Arrays.stream(dimensions).boxed().toList());
        }

        @Override
        public int size() {
            long bytes = base.size();
            for (long dimension : dimensions) {
                bytes *= dimension;
            }
            return (int) bytes;
        }

        @Override
        public ByteOrder byteOrder() {
            return base.byteOrder();
        }
    }

    /** One named member of a compound type, at a byte offset inside the compound element. */
    record Member(String name, int offset, Datatype type) {
        public Member {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            if (offset < 0) {
                throw new IllegalArgumentException("member offset must not be negative");
            }
        }
    }

    /** A record of named members, each inside {@code size} bytes without overlapping. */
    record CompoundType(int size, List<Member> members) implements Datatype {
        public CompoundType {
            members = List.copyOf(members);
            if (members.isEmpty()) {
                throw new IllegalArgumentException("a compound type needs at least one member");
            }
            for (Member member : members) {
                if (member.type() instanceof VariableLengthStringType) {
                    // Its elements would be global heap IDs, which Quire neither writes nor
                    // resolves inside a compound.
                    throw new IllegalArgumentException("member " + member.name()
                            + ": variable-length strings in a compound are not supported");
                }
                if (member.offset() + member.type().size() > size) {
                    throw new IllegalArgumentException("member " + member.name()
                            + " ends past the compound size " + size);
                }
            }
        }

        /** Members laid out one after another in the given order, without padding. */
        public static CompoundType packed(List<String> names, List<Datatype> types) {
            List<Member> members = new java.util.ArrayList<>();
            int offset = 0;
            for (int i = 0; i < names.size(); i++) {
                members.add(new Member(names.get(i), offset, types.get(i)));
                offset += types.get(i).size();
            }
            return new CompoundType(offset, members);
        }

        @Override
        public ByteOrder byteOrder() {
            return ByteOrder.LITTLE_ENDIAN;
        }
    }
}
