package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.DataspaceMessage;

class ChunkGridTest {

    @Test
    void numbersChunksRowMajorOverTheMaximumShape() {
        ChunkGrid grid = new ChunkGrid(new long[] {2, 3}, new long[] {10, 8});
        assertEquals(5 * 3, grid.maxChunkCount());
        assertEquals(0, grid.linearIndex(new long[] {0, 0}));
        assertEquals(2, grid.linearIndex(new long[] {0, 2}));
        assertEquals(3 * 4 + 1, grid.linearIndex(new long[] {4, 1}));
    }

    @Test
    void movesTheUnlimitedDimensionToTheFront() {
        ChunkGrid grid = new ChunkGrid(new long[] {1, 4, 2},
                new long[] {4, DataspaceMessage.UNLIMITED, 3});
        assertEquals(1, grid.unlimitedDimensions());
        // order (1, 0, 2) with 4 and 2 chunks in the fixed dimensions
        assertEquals(0, grid.linearIndex(new long[] {0, 0, 0}));
        assertEquals(1, grid.linearIndex(new long[] {0, 0, 1}));
        assertEquals(2, grid.linearIndex(new long[] {1, 0, 0}));
        assertEquals(8 + 2 * 3 + 1, grid.linearIndex(new long[] {3, 1, 1}));
    }

    @Test
    void scaledCoordinatesInvertTheNumbering() {
        ChunkGrid grid = new ChunkGrid(new long[] {1, 4, 2},
                new long[] {4, DataspaceMessage.UNLIMITED, 3});
        for (long[] scaled : new long[][] {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {3, 1, 1},
                {2, 1_000_000, 0}}) {
            assertArrayEquals(scaled, grid.scaledCoordinates(grid.linearIndex(scaled)));
        }
    }

    @Test
    void refusesChunkCountsThatOverflow() {
        assertThrows(ArithmeticException.class, () -> new ChunkGrid(new long[] {1, 1, 1},
                new long[] {1L << 30, 1L << 30, 1L << 30}).maxChunkCount());
    }

    @Test
    void hasNoLinearNumberingWithSeveralUnlimitedDimensions() {
        ChunkGrid grid = new ChunkGrid(new long[] {2, 3},
                new long[] {DataspaceMessage.UNLIMITED, DataspaceMessage.UNLIMITED});
        assertEquals(2, grid.unlimitedDimensions());
        assertThrows(IllegalStateException.class, () -> grid.linearIndex(new long[] {0, 1}));
        assertThrows(IllegalStateException.class, () -> grid.scaledCoordinates(1));
    }
}
