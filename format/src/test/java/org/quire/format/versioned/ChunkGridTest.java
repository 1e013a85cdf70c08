package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class ChunkGridTest {

    @Test
    void fillRepeatsTheElementOverTheWholeArray() {
        byte[] element = {1, 2, 3};
        for (int copies : new int[] {0, 1, 2, 5, 37}) {
            byte[] expected = new byte[3 * copies];
            for (int at = 0; at < expected.length; at++) {
                expected[at] = element[at % 3];
            }
            byte[] filled = new byte[3 * copies];
            ChunkGrid.fill(filled, element);
            assertArrayEquals(expected, filled, copies + " copies");
        }
    }
}
