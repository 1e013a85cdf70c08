package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The record contract of docs/swmr.md, checked: 8 little-endian uint64 {@code seq, t_ns, p0..p4,
 * sum}; {@code seq = i}, {@code p_k = splitmix64(i * 8 + k)}, {@code sum} the XOR of the other
 * seven. A fill-value record (all zero) or a torn one fails, naming the index.
 */
final class RecordContract {

    static final int SIZE = 64;

    private RecordContract() {
    }

    static long splitmix64(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Checks {@code count} records starting with record {@code first} in {@code bytes}. */
    static void check(long first, long count, ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (long j = 0; j < count; j++) {
            long i = first + j;
            int at = (int) (j * SIZE);
            long seq = in.getLong(at);
            long time = in.getLong(at + 8);
            if (seq == 0 && time == 0 && i != 0) {
                fail("record " + i + " is the fill value (all zero)");
            }
            assertEquals(i, seq, "seq of record " + i);
            long sum = seq ^ time;
            for (int k = 0; k < 5; k++) {
                long p = in.getLong(at + 16 + 8 * k);
                assertEquals(splitmix64(i * 8 + k), p, "p" + k + " of record " + i);
                sum ^= p;
            }
            assertEquals(sum, in.getLong(at + 56), "sum of record " + i);
        }
    }
}
