package org.quire.format.hdf5.layout;

/**
 * Bob Jenkins' lookup3 {@code hashlittle}, the checksum of every HDF5 metadata block that has
 * one (File Format Specification 3.0, section "Checksums"; libhdf5's
 * {@code H5_checksum_lookup3}). HDF5 always calls it with an initial value of 0 over all bytes of
 * a block that precede the checksum field, and stores the result little-endian.
 */
public final class JenkinsLookup3 {

    private JenkinsLookup3() {
    }

    /** The HDF5 metadata checksum of {@code length} bytes of {@code data} from {@code offset}. */
    public static int checksum(byte[] data, int offset, int length) {
        return hashLittle(data, offset, length, 0);
    }

    /** {@code hashlittle(key, length, initval)} from lookup3.c, reading the key byte by byte. */
    public static int hashLittle(byte[] key, int offset, int length, int initialValue) {
        int a = 0xdeadbeef + length + initialValue;
        int b = a;
        int c = a;
        int k = offset;
        int remaining = length;
        while (remaining > 12) {
            a += littleInt(key, k, 4);
            b += littleInt(key, k + 4, 4);
            c += littleInt(key, k + 8, 4);
            // mix(a, b, c)
            a -= c; a ^= Integer.rotateLeft(c, 4); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 6); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 8); b += a;
            a -= c; a ^= Integer.rotateLeft(c, 16); c += b;
            b -= a; b ^= Integer.rotateLeft(a, 19); a += c;
            c -= b; c ^= Integer.rotateLeft(b, 4); b += a;
            remaining -= 12;
            k += 12;
        }
        if (remaining == 0) {
            return c;
        }
        // The last 1..12 bytes; missing high bytes count as zero.
        a += littleInt(key, k, Math.min(remaining, 4));
        if (remaining > 4) {
            b += littleInt(key, k + 4, Math.min(remaining - 4, 4));
        }
        if (remaining > 8) {
            c += littleInt(key, k + 8, remaining - 8);
        }
        // final(a, b, c)
        c ^= b; c -= Integer.rotateLeft(b, 14);
        a ^= c; a -= Integer.rotateLeft(c, 11);
        b ^= a; b -= Integer.rotateLeft(a, 25);
        c ^= b; c -= Integer.rotateLeft(b, 16);
        a ^= c; a -= Integer.rotateLeft(c, 4);
        b ^= a; b -= Integer.rotateLeft(a, 14);
        c ^= b; c -= Integer.rotateLeft(b, 24);
        return c;
    }

    private static int littleInt(byte[] key, int at, int count) {
        int value = 0;
        for (int i = 0; i < count; i++) {
            value |= (key[at + i] & 0xff) << (8 * i);
        }
        return value;
    }
}
