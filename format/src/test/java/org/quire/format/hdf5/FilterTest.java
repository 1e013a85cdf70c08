package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FilterTest {

    @Test
    void shuffleGroupsBytesByPositionAndKeepsATail() {
        byte[] chunk = {1, 2, 3, 4, 5, 6, 7};
        byte[] shuffled = Filter.shuffle().encode(chunk, 2);
        assertArrayEquals(new byte[] {1, 3, 5, 2, 4, 6, 7}, shuffled);
        assertArrayEquals(chunk, Filter.shuffle().decode(shuffled, 2, 7));
    }

    @Test
    void deflateRoundTripsAndRejectsGarbage() {
        byte[] chunk = new byte[5000];
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) (i % 7);
        }
        byte[] packed = Filter.deflate(9).encode(chunk, 1);
        assertEquals(0x78, packed[0] & 0xff);
        assertArrayEquals(chunk, Filter.deflate(1).decode(packed, 1, 5000));
        assertThrows(IllegalArgumentException.class,
                () -> Filter.deflate(1).decode(new byte[] {1, 2, 3, 4}, 1, 5000));
    }

    /** Sums computed by hand for libhdf5's big-endian 16-bit word order. */
    @Test
    void fletcher32FollowsLibhdf5AndDetectsDamage() {
        // words 0x0102, 0x0304: sum1 = 0x0406, sum2 = 0x0102 + 0x0406 = 0x0508
        assertEquals(0x05080406, Filter.Fletcher32.checksum(new byte[] {1, 2, 3, 4}, 4));
        // an odd byte is the high byte of a last word: sum1 = 0x0102 + 0x0300,
        // sum2 = 0x0102 + 0x0402 (libhdf5 agrees: /filters/fletcher32_odd in the interop corpus)
        assertEquals(0x05040402, Filter.Fletcher32.checksum(new byte[] {1, 2, 3}, 3));
        byte[] stored = Filter.fletcher32().encode(new byte[] {1, 2, 3, 4}, 1);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 6, 4, 8, 5}, stored);
        stored[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> Filter.fletcher32().decode(stored, 1, 4));
    }
}
