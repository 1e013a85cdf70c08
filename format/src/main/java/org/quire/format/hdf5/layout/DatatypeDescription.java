package org.quire.format.hdf5.layout;

import java.nio.ByteOrder;
import java.util.List;

/**
 * A datatype as a datatype message (specification section IV.A.2.d) describes it, for the
 * classes Quire handles: what {@link DatatypeMessage} decodes and encodes. The API package turns
 * it into its {@code Datatype} and back; the API type's constructors check what the message's
 * fields alone cannot (sizes, members inside the compound).
 */
public sealed interface DatatypeDescription {

    /** Bytes of one element. */
    int size();

    /** Fixed-point class: an integer, all bits significant. */
    record FixedPoint(int size, boolean signed, ByteOrder byteOrder)
            implements DatatypeDescription {
    }

    /** Floating-point class, with the IEEE 754 bit layout of its size. */
    record FloatingPoint(int size, ByteOrder byteOrder) implements DatatypeDescription {
    }

    /**
     * String class: fixed-length text, {@code padding} as the message codes it (0 NUL-terminated,
     * 1 NUL-padded, 2 space-padded).
     */
    record FixedString(int size, int padding, boolean utf8) implements DatatypeDescription {
    }

    /** Compound class: named members at byte offsets. */
    record Compound(int size, List<Member> members) implements DatatypeDescription {
    }

    /**
     * Array class: {@code dimensions} (each at least 1, row-major) elements of {@code base}, as
     * one element.
     */
    record Array(DatatypeDescription base, List<Long> dimensions) implements DatatypeDescription {
        @Override
        public int size() {
            long count = 1;
            for (long dimension : dimensions) {
                count *= dimension;
            }
            return (int) (count * base.size());
        }
    }

    /** One member of a compound. */
    record Member(String name, int offset, DatatypeDescription type) {
    }

    /**
     * Enumeration class: named values of an integer {@code base} type, each value as stored
     * ({@code base.size()} bytes in its byte order).
     */
    record Enumeration(FixedPoint base, List<EnumMember> members) implements DatatypeDescription {
        @Override
        public int size() {
            return base.size();
        }
    }

    /** One named value of an enumeration, as stored. */
    record EnumMember(String name, byte[] value) {
    }

    /**
     * Variable-length class, string type: each element is its length and a global heap ID
     * ({@link GlobalHeapId}); {@code padding} coded as for {@link FixedString}.
     */
    record VariableLengthString(int padding, boolean utf8) implements DatatypeDescription {
        /** Bytes of one stored element: length (4), collection address (8), object index (4). */
        public static final int STORED_SIZE = 16;

        @Override
        public int size() {
            return STORED_SIZE;
        }
    }
}
