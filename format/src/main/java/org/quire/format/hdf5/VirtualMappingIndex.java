package org.quire.format.hdf5;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Which mappings of a virtual dataset a request may touch, found without visiting them all:
 * each mapping's virtual bounding box, sorted by where it starts along the first dimension,
 * with the furthest end reached so far, so that a request's candidates are one binary search
 * and a walk back over the mappings that start before the request ends. Candidates come back in
 * the mappings' own order, which decides what overlapping mappings show.
 */
final class VirtualMappingIndex {

    /** Box pairs the disjointness check compares before it gives up and assumes overlap. */
    private static final long DISJOINT_CHECK_BUDGET = 1L << 24;

    private final long[][] lows;
    private final long[][] highs;
    /** Mapping positions sorted by their box's start along the first dimension. */
    private final int[] byStart;
    private final long[] sortedStarts;
    /** The largest end along the first dimension among byStart[0..i]. */
    private final long[] furthestEnd;
    private final boolean disjoint;

    /**
     * The index of boxes {@code lows[i]} (inclusive) to {@code highs[i]} (exclusive); a null
     * box is a mapping that selects nothing.
     */
    VirtualMappingIndex(long[][] lows, long[][] highs) {
        this.lows = lows;
        this.highs = highs;
        byStart = IntStream.range(0, lows.length).filter(i -> lows[i] != null).boxed()
                .sorted(Comparator.comparingLong(i -> lows[i][0]))
                .mapToInt(Integer::intValue).toArray();
        sortedStarts = new long[byStart.length];
        furthestEnd = new long[byStart.length];
        long furthest = Long.MIN_VALUE;
        for (int i = 0; i < byStart.length; i++) {
            sortedStarts[i] = lows[byStart[i]][0];
            furthest = Math.max(furthest, highs[byStart[i]][0]);
            furthestEnd[i] = furthest;
        }
        disjoint = checkDisjoint();
    }

    /** Whether no two boxes share an element (false too when that was too costly to learn). */
    boolean disjoint() {
        return disjoint;
    }

    /**
     * The mappings whose boxes meet the request box {@code start}, {@code count}, in mapping
     * order.
     */
    int[] candidates(long[] start, long[] count) {
        long end = start[0] + count[0];
        int before = firstStartingAtOrAfter(end);
        int[] found = new int[before];
        int n = 0;
        for (int i = before - 1; i >= 0 && furthestEnd[i] > start[0]; i--) {
            int mapping = byStart[i];
            if (meets(mapping, start, count)) {
                found[n++] = mapping;
            }
        }
        int[] candidates = Arrays.copyOf(found, n);
        Arrays.sort(candidates);
        return candidates;
    }

    private boolean meets(int mapping, long[] start, long[] count) {
        for (int d = 0; d < start.length; d++) {
            if (lows[mapping][d] >= start[d] + count[d] || highs[mapping][d] <= start[d]) {
                return false;
            }
        }
        return true;
    }

    private int firstStartingAtOrAfter(long end) {
        int lo = 0;
        int hi = sortedStarts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sortedStarts[mid] < end) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A sweep along the first dimension: each box against the earlier ones still open there. */
    private boolean checkDisjoint() {
        long compared = 0;
        for (int i = 1; i < byStart.length; i++) {
            int mapping = byStart[i];
            long[] low = lows[mapping];
            long[] high = highs[mapping];
            long[] count = new long[low.length];
            for (int d = 0; d < low.length; d++) {
                count[d] = high[d] - low[d];
            }
            for (int j = i - 1; j >= 0 && furthestEnd[j] > low[0]; j--) {
                if (++compared > DISJOINT_CHECK_BUDGET || meets(byStart[j], low, count)) {
                    return false;
                }
            }
        }
        return true;
    }
}
