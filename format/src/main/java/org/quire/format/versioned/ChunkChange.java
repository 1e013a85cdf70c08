package org.quire.format.versioned;

/**
 * A chunk of a dataset that differs between two versions: its origin (element coordinates, a
 * multiple of the chunk shape) and the SHA-256 digest of its content in each, null where the
 * chunk is not stored (fill, or outside that version's shape).
 */
public record ChunkChange(long[] origin, byte[] before, byte[] after) {

    /** A digest as 64 lowercase hex digits, or "-" for none. */
    public static String hex(byte[] digest) {
        return digest == null ? "-" : ChunkDigest.hex(digest);
    }

    @Override
    public String toString() {
        return java.util.Arrays.toString(origin) + " " + hex(before) + " -> " + hex(after);
    }
}
