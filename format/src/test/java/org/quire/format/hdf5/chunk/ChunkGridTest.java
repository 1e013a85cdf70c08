package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.ChunkRecord;
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

    @Test
    void containsOnlyCoordinatesInsideTheMaximumExtentOfItsRank() {
        ChunkGrid grid = new ChunkGrid(new long[] {2, 3}, new long[] {9, 9});
        assertTrue(grid.contains(new long[] {0, 0}));
        assertTrue(grid.contains(new long[] {4, 2}));
        assertFalse(grid.contains(new long[] {5, 2}));
        assertFalse(grid.contains(new long[] {4, 3}));
        assertFalse(grid.contains(new long[] {-1, 0}));
        assertFalse(grid.contains(new long[] {0, -1}));
        assertFalse(grid.contains(new long[] {0, 0, 0}));
        ChunkGrid growing = new ChunkGrid(new long[] {2}, new long[] {DataspaceMessage.UNLIMITED});
        assertTrue(growing.contains(new long[] {Long.MAX_VALUE - 1}));
        assertFalse(growing.contains(new long[] {Long.MAX_VALUE}));
    }

    @Test
    void describesItsShape() {
        long[] chunk = {2, 3};
        ChunkGrid grid = new ChunkGrid(chunk, new long[] {9, 9});
        chunk[0] = 7;
        assertEquals(2, grid.rank());
        assertEquals(2, grid.chunkSize(0));
        assertEquals(3, grid.chunkSize(1));
        long[] shape = grid.chunkShape();
        assertArrayEquals(new long[] {2, 3}, shape);
        shape[1] = 7;
        assertArrayEquals(new long[] {2, 3}, grid.chunkShape());
        assertTrue(grid.hasLinearIndex());
        assertEquals(0, grid.unlimitedDimensions());
        assertFalse(new ChunkGrid(new long[] {1, 1}, new long[] {DataspaceMessage.UNLIMITED,
                DataspaceMessage.UNLIMITED}).hasLinearIndex());
    }

    @Test
    void aMaximumSizeNeitherUnlimitedNorBelowTwoToTheSixtyThreeIsRefused() {
        assertEquals("maximum size 18446744073709551614 of dimension 1 is neither unlimited"
                + " nor below 2^63", assertThrows(IllegalArgumentException.class,
                        () -> new ChunkGrid(new long[] {1, 1}, new long[] {4, -2})).getMessage());
    }

    /** A maximum size of 0 is a dataset that never holds an element: no chunk at all. */
    @Test
    void aMaximumSizeOfZeroHoldsNoChunk() {
        ChunkGrid empty = new ChunkGrid(new long[] {4, 2}, new long[] {0, 6});
        assertEquals(0, empty.maxChunkCount());
        assertFalse(empty.contains(new long[] {0, 0}));
    }

    /** The stride of the first dimension is never needed, so its product may overflow. */
    @Test
    void onlyStridesThatAreUsedMustFit() {
        ChunkGrid grid = new ChunkGrid(new long[] {1, 1},
                new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
        assertEquals(Long.MAX_VALUE - 1, grid.linearIndex(new long[] {0, Long.MAX_VALUE - 1}));
        assertThrows(ArithmeticException.class, () -> new ChunkGrid(new long[] {1, 1, 1},
                new long[] {Long.MAX_VALUE, 2, Long.MAX_VALUE}));
    }

    @Test
    void visitsTheWrittenRecordsWithTheirCoordinates() throws IOException {
        ChunkGrid grid = new ChunkGrid(new long[] {1, 1}, new long[] {3, 4});
        ChunkRecord written = new ChunkRecord(64, 8, 0);
        List<String> visited = new ArrayList<>();
        grid.forEachWritten(new ChunkRecord[] {ChunkRecord.UNWRITTEN, written,
                ChunkRecord.UNWRITTEN, written}, 5, (scaled, record) -> visited.add(
                        Arrays.toString(scaled) + " " + record.address()));
        assertEquals(List.of("[1, 2] 64", "[2, 0] 64"), visited);
    }
}
