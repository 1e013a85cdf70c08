package org.quire.format.versioned;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The content address of a chunk, data version 4 (reference note §1.4): SHA-256 over the
 * edge-trimmed chunk's elements in C order as stored (the type's byte order; variable-length
 * strings each as an 8-byte little-endian length and its bytes), then the ASCII text of the
 * trimmed shape as Python prints a tuple: {@code (4,)}, {@code (2, 2)}, {@code (0, 3)}. The
 * dtype is not hashed; padding of edge chunks is not part of the chunk.
 */
final class ChunkDigest {

    static final int LENGTH = 32;

    private ChunkDigest() {
    }

    /** The digest of a chunk whose elements (C order, type's bytes) are {@code elements}. */
    static byte[] of(byte[] elements, long[] trimmedShape) {
        MessageDigest sha = sha256();
        sha.update(elements);
        sha.update(shapeText(trimmedShape).getBytes(StandardCharsets.US_ASCII));
        return sha.digest();
    }

    /** The digest of a chunk of variable-length strings, each given by its bytes. */
    static byte[] ofStrings(List<byte[]> strings, long[] trimmedShape) {
        MessageDigest sha = sha256();
        byte[] length = new byte[8];
        for (byte[] string : strings) {
            long n = string.length;
            for (int i = 0; i < 8; i++) {
                length[i] = (byte) (n >>> (8 * i));
            }
            sha.update(length);
            sha.update(string);
        }
        sha.update(shapeText(trimmedShape).getBytes(StandardCharsets.US_ASCII));
        return sha.digest();
    }

    /** Python's {@code str(tuple)} of a shape: a trailing comma only for one dimension. */
    static String shapeText(long[] shape) {
        StringBuilder text = new StringBuilder("(");
        for (int d = 0; d < shape.length; d++) {
            text.append(d == 0 ? "" : ", ").append(shape[d]);
        }
        return text.append(shape.length == 1 ? ",)" : ")").toString();
    }

    static String hex(byte[] digest) {
        StringBuilder text = new StringBuilder();
        for (byte b : digest) {
            text.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return text.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
