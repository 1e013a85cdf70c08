package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link VirtualMappingIndex} at its edges: boxes given out of start order, a request ending
 * exactly where a box starts or starting exactly where one ends, boxes apart in the second
 * dimension only, a mapping that selects nothing (a null box), and the disjointness check for
 * touching, identical and overlapping boxes and at its comparison budget exactly. Each expected
 * list of candidates is worked out here from the boxes.
 */
class VirtualMappingIndexMutationGapsTest {

    /** Box {@code i}: rows [row, rowEnd) x columns [column, columnEnd). */
    private static long[][] lows(long[]... boxes) {
        return Stream.of(boxes).map(b -> b == null ? null : new long[] {b[0], b[2]})
                .toArray(long[][]::new);
    }

    private static long[][] highs(long[]... boxes) {
        return Stream.of(boxes).map(b -> b == null ? null : new long[] {b[1], b[3]})
                .toArray(long[][]::new);
    }

    private static VirtualMappingIndex index(long[]... boxes) {
        return new VirtualMappingIndex(lows(boxes), highs(boxes));
    }

    private static long[] box(long row, long rowEnd, long column, long columnEnd) {
        return new long[] {row, rowEnd, column, columnEnd};
    }

    /**
     * Mappings 0..5 stored out of start order; mapping 3 selects nothing. Mapping 1 spans rows
     * [0, 9) so a request far down still walks back to it; mapping 4 lies in the same rows as
     * mapping 2 but in columns [4, 6); mapping 5, last, starts at row 0 as mapping 1 does.
     */
    private static final long[][] BOXES = {box(6, 8, 0, 4), box(0, 9, 2, 3), box(3, 5, 0, 4),
            null, box(3, 5, 4, 6), box(0, 1, 0, 1)};

    static Stream<Arguments> requests() {
        return Stream.of(
                // Everything: the candidates in mapping order, not in start order.
                Arguments.of(new long[] {0, 0}, new long[] {9, 6}, new int[] {0, 1, 2, 4, 5}),
                // Row 0: the two boxes starting there, the one stored last too.
                Arguments.of(new long[] {0, 0}, new long[] {1, 6}, new int[] {1, 5}),
                // Rows [5, 6): between mapping 2's end and mapping 0's start; mapping 1 only.
                Arguments.of(new long[] {5, 0}, new long[] {1, 6}, new int[] {1}),
                // Rows [3, 6) ends where mapping 0 starts; starts where nothing ends.
                Arguments.of(new long[] {3, 0}, new long[] {3, 6}, new int[] {1, 2, 4}),
                // Rows [8, 9) start where mapping 0 ends: mapping 1 alone reaches that far.
                Arguments.of(new long[] {8, 0}, new long[] {1, 6}, new int[] {1}),
                // Columns [0, 2) end where mapping 1 starts: 0, 2 and 5.
                Arguments.of(new long[] {0, 0}, new long[] {9, 2}, new int[] {0, 2, 5}),
                // Columns [3, 4) start where mapping 1 ends and end where mapping 4 starts.
                Arguments.of(new long[] {0, 3}, new long[] {9, 1}, new int[] {0, 2}),
                // Columns [4, 6) in rows [6, 8): mapping 0 ends at column 4, nothing there.
                Arguments.of(new long[] {6, 4}, new long[] {2, 2}, new int[] {}),
                // One element inside mapping 4.
                Arguments.of(new long[] {4, 5}, new long[] {1, 1}, new int[] {4}));
    }

    @ParameterizedTest
    @MethodSource("requests")
    void candidatesAreTheBoxesTheRequestMeetsInMappingOrder(long[] start, long[] count,
                                                           int[] expected) {
        assertArrayEquals(expected, index(BOXES).candidates(start, count));
    }

    static Stream<Arguments> disjointness() {
        return Stream.of(
                // Apart in rows, touching: disjoint.
                Arguments.of(new long[][] {box(0, 2, 0, 2), box(2, 4, 0, 2)}, true),
                // Rows shared; the earlier-starting box on the right, touching in columns, in
                // either mapping order.
                Arguments.of(new long[][] {box(0, 2, 3, 5), box(1, 3, 1, 3)}, true),
                Arguments.of(new long[][] {box(1, 3, 1, 3), box(0, 2, 3, 5)}, true),
                // Identical boxes: they share every element.
                Arguments.of(new long[][] {box(0, 2, 0, 2), box(0, 2, 0, 2)}, false),
                // The first box overlaps the third only (the second is apart from both).
                Arguments.of(new long[][] {box(0, 5, 0, 2), box(1, 2, 3, 4), box(4, 6, 1, 3)},
                        false),
                // One box and a mapping of nothing.
                Arguments.of(new long[][] {box(0, 2, 0, 2), null}, true));
    }

    @ParameterizedTest
    @MethodSource("disjointness")
    void disjointIsWhetherTwoBoxesShareAnElement(long[][] boxes, boolean disjoint) {
        assertEquals(disjoint, index(boxes).disjoint());
    }

    /**
     * 5,793 boxes all open at row 0 and apart in columns cost 5,793 x 5,792 / 2 = 16,776,528
     * comparisons; one more box, starting at row {@code 100 + 5,792 - extra}, meets the
     * {@code extra} boxes whose rows still reach it. With 688 extra the sweep compares exactly
     * 2^24 pairs, the budget, and learns the boxes are disjoint; with 689 it gives up.
     */
    @Test
    void theDisjointnessCheckGivesUpJustBeyondItsBudget() {
        assertEquals(true, budgetIndex(688).disjoint());
        assertEquals(false, budgetIndex(689).disjoint());
    }

    private static VirtualMappingIndex budgetIndex(int extra) {
        int open = 5793;
        long[][] boxes = new long[open + 1][];
        for (int i = 0; i < open; i++) {
            boxes[i] = box(0, 100 + i, i, i + 1);
        }
        boxes[open] = box(100 + open - 1 - extra, 100_000, open, open + 1);
        return index(boxes);
    }
}
