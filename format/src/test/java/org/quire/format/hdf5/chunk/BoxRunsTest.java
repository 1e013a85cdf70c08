package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Runs of a box in two arrays: where they start in each, and how trailing dimensions merge. */
class BoxRunsTest {

    private static List<List<Long>> runs(long[] sourceShape, long[] sourceOrigin,
                                         long[] targetShape, long[] targetOrigin, long[] extent) {
        List<List<Long>> runs = new ArrayList<>();
        BoxRuns.forEach(sourceShape, sourceOrigin, targetShape, targetOrigin, extent,
                (from, to, elements) -> runs.add(List.of(from, to, elements)));
        return runs;
    }

    @Test
    void aBoxInsideRowsIsOneRunPerRow() {
        // A 2 x 3 box at (1, 2) of a 4 x 5 chunk, to (0, 1) of a 2 x 4 selection.
        assertEquals(List.of(List.of(7L, 1L, 3L), List.of(12L, 5L, 3L)),
                runs(new long[] {4, 5}, new long[] {1, 2}, new long[] {2, 4}, new long[] {0, 1},
                        new long[] {2, 3}));
    }

    @Test
    void rowsWholeInBothArraysMergeIntoOneRun() {
        // Rows 1..2 of a 3 x 4 x 5 array, whole, into a 2 x 4 x 5 selection: one run of 40.
        assertEquals(List.of(List.of(20L, 0L, 40L)),
                runs(new long[] {3, 4, 5}, new long[] {1, 0, 0}, new long[] {2, 4, 5},
                        new long[3], new long[] {2, 4, 5}));
        assertTrue(BoxRuns.isOneRun(new long[] {3, 4, 5}, new long[] {2, 4, 5},
                new long[] {2, 4, 5}));
    }

    @Test
    void rowsWholeInOneArrayOnlyStaySeparate() {
        // A whole 2 x 2 chunk inside a 2 x 6 selection: rows are 2 apart in the chunk, 6 in it.
        assertEquals(List.of(List.of(0L, 4L, 2L), List.of(2L, 10L, 2L)),
                runs(new long[] {2, 2}, new long[2], new long[] {2, 6}, new long[] {0, 4},
                        new long[] {2, 2}));
        assertFalse(BoxRuns.isOneRun(new long[] {2, 2}, new long[] {2, 6}, new long[] {2, 2}));
    }

    @Test
    void anEmptyBoxHasNoRunsAndAScalarOne() {
        assertEquals(List.of(), runs(new long[] {4}, new long[] {1}, new long[] {0},
                new long[] {0}, new long[] {0}));
        assertEquals(List.of(List.of(0L, 0L, 1L)), runs(new long[0], new long[0], new long[0],
                new long[0], new long[0]));
    }

    @Test
    void elementIndexIsRowMajor() {
        assertEquals(2 * 20 + 3 * 5 + 4, BoxRuns.elementIndex(new long[] {3, 4, 5},
                new long[] {2, 3, 4}));
    }
}
