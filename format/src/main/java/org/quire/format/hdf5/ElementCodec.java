package org.quire.format.hdf5;

import java.nio.ByteBuffer;

/**
 * Converts between Java primitive arrays and element bytes in a datatype's byte order. A typed
 * array must match the datatype's width: {@code byte[]} for 1-byte integers, {@code short[]} for
 * 2, {@code int[]} for 4, {@code long[]} for 8 (enumerations as their integer type),
 * {@code float[]} for float32, {@code double[]} for float64. Signedness is the caller's
 * interpretation, as in Java. Integers of other sizes are widened to long
 * ({@link #decodeLongs}).
 */
final class ElementCodec {

    private ElementCodec() {
    }

    static byte[] encode(Datatype type, Object array) {
        requireMatch(type, array);
        int count = java.lang.reflect.Array.getLength(array);
        ByteBuffer out = ByteBuffer.allocate(count * type.size()).order(type.byteOrder());
        if (array instanceof byte[] values) {
            out.put(values);
        } else if (array instanceof short[] values) {
            out.asShortBuffer().put(values);
        } else if (array instanceof int[] values) {
            out.asIntBuffer().put(values);
        } else if (array instanceof long[] values) {
            out.asLongBuffer().put(values);
        } else if (array instanceof float[] values) {
            out.asFloatBuffer().put(values);
        } else {
            out.asDoubleBuffer().put((double[]) array);
        }
        return out.array();
    }

    /**
     * {@code count} integer (or enumeration) elements widened to long, any size from 1 to 8
     * bytes (unsigned 64-bit values keep their bits).
     */
    static long[] decodeLongs(Datatype type, ByteBuffer bytes, int count) {
        Datatype.IntegerType integer = integerOf(type);
        byte[] elements = new byte[count * integer.size()];
        bytes.duplicate().get(elements);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = integer.decode(elements, i * integer.size());
        }
        return out;
    }

    /** The integer type of an integer or enumeration type. */
    static Datatype.IntegerType integerOf(Datatype type) {
        if (type instanceof Datatype.IntegerType integer) {
            return integer;
        }
        if (type instanceof Datatype.EnumType enumeration) {
            return enumeration.base();
        }
        throw new IllegalArgumentException("not an integer type: " + type);
    }

    /** {@code count} number elements converted to double. */
    static double[] decodeDoubles(Datatype type, ByteBuffer bytes, int count) {
        if (type instanceof Datatype.FloatType real) {
            ByteBuffer in = bytes.duplicate().order(type.byteOrder());
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                out[i] = real.size() == 4 ? in.getFloat() : in.getDouble();
            }
            return out;
        }
        long[] integers = decodeLongs(type, bytes, count);
        // An unsigned 64-bit value of 2^63 or more is a negative long: convert its bits unsigned.
        boolean unsigned64 = !integerOf(type).signed() && type.size() == Long.BYTES;
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            long value = integers[i];
            out[i] = unsigned64 && value < 0
                    ? (double) (value >>> 1 | (value & 1)) * 2.0 : value;
        }
        return out;
    }

    /** One integer element of {@code type} holding {@code value}, truncated to its width. */
    static byte[] encodeOne(Datatype type, long value) {
        if (type instanceof Datatype.FloatType) {
            return encodeOne(type, (double) value);
        }
        if (!(type instanceof Datatype.IntegerType || type instanceof Datatype.EnumType)) {
            throw new IllegalArgumentException("not a number type: " + type);
        }
        return integerOf(type).encode(value);
    }

    /** One element of {@code type} holding {@code value}. */
    static byte[] encodeOne(Datatype type, double value) {
        if (type instanceof Datatype.IntegerType || type instanceof Datatype.EnumType) {
            return encodeOne(type, (long) value);
        }
        if (!(type instanceof Datatype.FloatType)) {
            throw new IllegalArgumentException("not a number type: " + type);
        }
        ByteBuffer out = ByteBuffer.allocate(type.size()).order(type.byteOrder());
        if (type.size() == 4) {
            out.putFloat((float) value);
        } else {
            out.putDouble(value);
        }
        return out.array();
    }

    /** @throws IllegalArgumentException {@code array} does not hold elements of {@code type} */
    static void requireMatch(Datatype type, Object array) {
        boolean integer = type instanceof Datatype.IntegerType
                || type instanceof Datatype.EnumType;
        boolean real = type instanceof Datatype.FloatType;
        int size = type.size();
        boolean matches = array instanceof byte[] && integer && size == 1
                || array instanceof short[] && integer && size == 2
                || array instanceof int[] && integer && size == 4
                || array instanceof long[] && integer && size == 8
                || array instanceof float[] && real && size == 4
                || array instanceof double[] && real && size == 8;
        if (!matches) {
            throw new IllegalArgumentException("a " + array.getClass().getSimpleName()
                    + " does not hold elements of " + type);
        }
    }
}
