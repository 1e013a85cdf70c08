package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The exact streams {@link LzfCodec#compress} writes where its match search has a boundary:
 * a repeat of exactly the shortest match (3 bytes) ending exactly at the end of the data, and a
 * repeat found through a position inside an earlier back reference (the nearest copy, so the
 * shortest distance). {@link LzfCodecTest} checks round trips and sizes, which these choices
 * do not change.
 */
class LzfCodecMutationGapsTest {

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** "abc" repeated once: a literal run of 3, then a back reference of 3 bytes, distance 3. */
    @Test
    void aThreeByteRepeatAtTheVeryEndIsABackReference() {
        assertArrayEquals(new byte[] {2, 'a', 'b', 'c', 0x20, 0x02},
                LzfCodec.compress(ascii("abcabc")));
    }

    /**
     * "0123456789" twice, then "3456789": the second copy is one back reference of 10 bytes
     * (long form: control 0xe0, length byte 10 - 2 - 7 = 1, distance 10 encoded as 9); the
     * tail repeats from inside that back reference, 7 bytes behind (encoded 6), not from the
     * first copy 17 bytes behind.
     */
    @Test
    void aRepeatOfPartOfABackReferenceCopiesFromInsideIt() {
        byte[] expected = new byte[] {9, '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
            (byte) 0xe0, 1, 9, (byte) 0xa0, 6};
        byte[] data = ascii("0123456789" + "0123456789" + "3456789");
        assertArrayEquals(expected, LzfCodec.compress(data));
        assertArrayEquals(data, LzfCodec.decompress(expected, data.length));
    }
}
