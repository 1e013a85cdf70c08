package org.quire.runtime.message;

import java.nio.ByteBuffer;

/**
 * Wire encodings of the values collectives carry: several byte arrays in one message
 * ({@code int count, then per array int length + bytes}), and int/long/double vectors (big-endian).
 */
public final class PackedArrays {

    private PackedArrays() {
    }

    public static byte[] pack(byte[][] arrays) {
        long total = Integer.BYTES;
        for (byte[] a : arrays) {
            total += Integer.BYTES + a.length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("packed size " + total + " exceeds the 2 GiB message limit");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total);
        out.putInt(arrays.length);
        for (byte[] a : arrays) {
            out.putInt(a.length).put(a);
        }
        return out.array();
    }

    public static byte[][] unpack(byte[] packed) {
        ByteBuffer in = ByteBuffer.wrap(packed);
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / Integer.BYTES) {
            throw new IllegalArgumentException("packed array count " + count + " does not fit " + packed.length + " bytes");
        }
        byte[][] arrays = new byte[count][];
        for (int i = 0; i < count; i++) {
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                throw new IllegalArgumentException("packed array " + i + " length " + length + " exceeds the "
                        + in.remaining() + " bytes left");
            }
            arrays[i] = new byte[length];
            in.get(arrays[i]);
        }
        return arrays;
    }

    public static byte[] ints(int[] values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * Integer.BYTES);
        out.asIntBuffer().put(values);
        return out.array();
    }

    public static int[] ints(byte[] encoded) {
        int[] values = new int[encoded.length / Integer.BYTES];
        ByteBuffer.wrap(encoded).asIntBuffer().get(values);
        return values;
    }

    public static byte[] longs(long[] values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * Long.BYTES);
        out.asLongBuffer().put(values);
        return out.array();
    }

    public static long[] longs(byte[] encoded) {
        long[] values = new long[encoded.length / Long.BYTES];
        ByteBuffer.wrap(encoded).asLongBuffer().get(values);
        return values;
    }

    public static byte[] doubles(double[] values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * Double.BYTES);
        out.asDoubleBuffer().put(values);
        return out.array();
    }

    public static double[] doubles(byte[] encoded) {
        double[] values = new double[encoded.length / Double.BYTES];
        ByteBuffer.wrap(encoded).asDoubleBuffer().get(values);
        return values;
    }
}
