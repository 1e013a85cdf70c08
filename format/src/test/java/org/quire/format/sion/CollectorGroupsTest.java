package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
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
    void sionlibsOwnCountIsOnePerBlockAtMostOnePerTask() {
        // 8 x 500 bytes fill one 4096-byte block: one collector, one group (coll_heuristic_8tasks.sion).
        CollectorGroups oneBlock = CollectorGroups.of(new long[] {500, 500, 500, 500, 500, 500, 500, 500}, 4096,
                SionWriteOptions.COLLECTORS_BY_SIONLIB_RULE);
        assertArrayEquals(new int[8], oneBlock.collectors());
        assertArrayEquals(new long[] {500, 500, 500, 500, 500, 500, 500, 596}, oneBlock.capacities());
        // 3 x 1000 bytes in blocks of 512: 6 blocks, but 3 tasks: 3 collectors of 1024 bytes, one task each.
        CollectorGroups perTask = CollectorGroups.of(new long[] {1000, 1000, 1000}, 512,
                SionWriteOptions.COLLECTORS_BY_SIONLIB_RULE);
        assertArrayEquals(new int[] {0, 1, 2}, perTask.collectors());
        assertArrayEquals(new long[] {1024, 1024, 1024}, perTask.capacities());
    }

    @Test
    void sionlibsOwnCountIsReducedByTheFirstRowThatApplies() {
        // 600 x 100 bytes in blocks of 2048: 30 blocks. 30 is not above 32 (the 512-task row) but above 16 (the
        // 256-task row): 16 collectors, roundup(60000 / 16, 2048) = 4096 bytes per group: 15 groups of 40 tasks.
        // The 512-task row's cap alone (32) would leave 30 collectors: 30 groups of 20.
        long[] requests = new long[600];
        Arrays.fill(requests, 100);
        CollectorGroups groups = CollectorGroups.of(requests, 2048, SionWriteOptions.COLLECTORS_BY_SIONLIB_RULE);
        for (int task = 0; task < requests.length; task++) {
            assertEquals(task / 40 * 40, groups.collectors()[task], "collector of task " + task);
        }
    }

    @Test
    void nothingRequestedAtAllIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CollectorGroups.of(new long[] {0, 0}, 4096, 1));
    }
}
