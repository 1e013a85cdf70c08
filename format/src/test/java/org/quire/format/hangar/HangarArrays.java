package org.quire.format.hangar;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The arrays the store tests write: array k holds {@code k * 1000 + e} at flat position e. */
final class HangarArrays {

    private HangarArrays() {
    }

    static float[] floats(int k, int elements) {
        float[] out = new float[elements];
        for (int e = 0; e < elements; e++) {
            out[e] = k * 1000 + e;
        }
        return out;
    }

    static int[] ints(int k, int elements) {
        int[] out = new int[elements];
        for (int e = 0; e < elements; e++) {
            out[e] = k * 1000 + e;
        }
        return out;
    }

    /** The bytes of {@link #floats}, little-endian: what a reader must find. */
    static byte[] floatBytes(int k, int elements) {
        ByteBuffer out = ByteBuffer.allocate(elements * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.asFloatBuffer().put(floats(k, elements));
        return out.array();
    }

    /**
     * Array k of the h5py fixture (make_hangar_fixture.py), int16 of shape (4, 3):
     * {@code (k * 12 + e) % 30011 - 15000}, little-endian bytes.
     */
    static byte[] fixtureBytes(int k) {
        ByteBuffer out = ByteBuffer.allocate(12 * Short.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int e = 0; e < 12; e++) {
            out.putShort((short) ((k * 12 + e) % 30011 - 15000));
        }
        return out.array();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
