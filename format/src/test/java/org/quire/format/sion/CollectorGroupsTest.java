package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** SIONlib's collective grouping and padding, worked out by hand from its rules. */
class CollectorGroupsTest {

    @Test
    void theTestVectorsGroupsOfTwo() {
        // par_4tasks_collective.sion: requested 4 x 3000, collsize 2, fsblksize 4096.
        CollectorGroups groups = CollectorGroups.of(new long[] {3000, 3000, 3000, 3000}, 4096, 2);
        assertArrayEquals(new int[] {0, 0, 2, 2}, groups.collectors());
        assertArrayEquals(new long[] {3000, 5192, 3000, 5192}, groups.capacities());
    }

    @Test
    void unevenRequestsFillGroupsUpToTheAverageAndATaskAboveItStandsAlone() {
        // 3 collectors, 12110 bytes: at most 4096 per group. Task 0 alone exceeds it, tasks 1+2 make 3100 and
        // task 3 would bring 7100, tasks 3+4 make 4010; each group's last task pads it to a block boundary.
        CollectorGroups groups = CollectorGroups.of(new long[] {5000, 100, 3000, 4000, 10}, 4096, 2);
        assertArrayEquals(new int[] {0, 1, 1, 3, 3}, groups.collectors());
        assertArrayEquals(new long[] {8192, 100, 3996, 4000, 96}, groups.capacities());
    }

    @Test
    void noMoreCollectorsThanBlocksOfData() {
        // One task per collector asked, but 400 bytes fill one block: one group.
        CollectorGroups groups = CollectorGroups.of(new long[] {100, 100, 100, 100}, 4096, 1);
        assertArrayEquals(new int[] {0, 0, 0, 0}, groups.collectors());
        assertArrayEquals(new long[] {100, 100, 100, 3796}, groups.capacities());
    }

    @Test
    void aGroupAlreadyEndingOnABlockBoundaryIsNotPadded() {
        CollectorGroups groups = CollectorGroups.of(new long[] {1024, 3072, 4096}, 4096, 2);
        assertArrayEquals(new int[] {0, 0, 2}, groups.collectors());
        assertArrayEquals(new long[] {1024, 3072, 4096}, groups.capacities());
    }

    @Test
    void nothingRequestedAtAllIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CollectorGroups.of(new long[] {0, 0}, 4096, 1));
    }
}
