package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Element counts and chunk counts of shapes, at their limits. */
class ShapesTest {

    @Test
    void anEmptyDimensionHoldsNoElementsAndAScalarOne() {
        assertEquals(0, Shapes.elementCount(new long[] {3, 0, 5}));
        assertEquals(1, Shapes.elementCount(new long[0]));
        assertEquals(60, Shapes.elementCount(new long[] {3, 4, 5}));
    }

    @Test
    void aNegativeSizeOrAnOverflowingCountIsRefused() {
        assertEquals("negative size -1", assertThrows(IllegalArgumentException.class,
                () -> Shapes.elementCount(new long[] {2, -1})).getMessage());
        assertThrows(ArithmeticException.class,
                () -> Shapes.elementCount(new long[] {1L << 32, 1L << 31}));
    }

    @Test
    void ceilDivRoundsUpOnlyWhenThereIsARemainder() {
        assertEquals(0, Shapes.ceilDiv(0, 4));
        assertEquals(1, Shapes.ceilDiv(4, 4));
        assertEquals(2, Shapes.ceilDiv(5, 4));
        assertEquals(Long.MAX_VALUE / 2 + 1, Shapes.ceilDiv(Long.MAX_VALUE, 2));
    }
}
