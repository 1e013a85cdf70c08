package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which fixed arrays Quire holds: blocks read in one piece, and a page bitmap, both bounded. */
class FixedArrayLimitsTest {

    @Test
    void anUnpagedBlockHoldsAtMostTwoToTheTwentyEntries() {
        assertNull(FixedArrayChunkIndex.beyondLimits(1 << 20, 20));
        assertNull(FixedArrayChunkIndex.beyondLimits(1 << 20, 32));
        // Exactly one page's worth is one unpaged block, whatever the page size.
        assertEquals("one unpaged data block",
                FixedArrayChunkIndex.beyondLimits(1 << 21, 21));
        assertEquals("one unpaged data block",
                FixedArrayChunkIndex.beyondLimits((1 << 20) + 1, 21));
        assertEquals("one unpaged data block",
                FixedArrayChunkIndex.beyondLimits(Integer.MAX_VALUE, 32));
    }

    @Test
    void pagesHoldAtMostTwoToTheTwentyEntriesAndNumberAtMostTwoToTheTwentySeven() {
        assertNull(FixedArrayChunkIndex.beyondLimits((1 << 20) + 1, 20));
        assertEquals("2 pages of 2097152", FixedArrayChunkIndex.beyondLimits((1 << 21) + 1, 21));
        assertNull(FixedArrayChunkIndex.beyondLimits(1L << 37, 10));
        assertEquals("134217729 pages of 1024",
                FixedArrayChunkIndex.beyondLimits((1L << 37) + 1, 10));
        assertNull(FixedArrayChunkIndex.beyondLimits(1025, 10));
        assertNull(FixedArrayChunkIndex.beyondLimits(1024, 10));
    }
}
