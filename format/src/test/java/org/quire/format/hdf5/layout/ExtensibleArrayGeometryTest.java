package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Block sizes for libhdf5's default parameters, as H5EAhdr.c derives them. */
class ExtensibleArrayGeometryTest {

    private final ExtensibleArrayGeometry geometry =
            new ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray.DEFAULT);

    @Test
    void superBlocksDoubleTheirDataBlocksAndTheirDataBlockSizesInTurn() {
        assertEquals(29, geometry.superBlockCount());
        long[][] expected = {{1, 16}, {1, 32}, {2, 32}, {2, 64}, {4, 64}, {4, 128}};
        for (int s = 0; s < expected.length; s++) {
            assertEquals(expected[s][0], geometry.dataBlocks(s), "data blocks of " + s);
            assertEquals(expected[s][1], geometry.dataBlockElements(s), "elements of " + s);
        }
        assertEquals(16L * ((1L << 13) - 1), geometry.startElement(13));
    }

    @Test
    void theIndexBlockHoldsSixDataBlocksAndTwentyFiveSuperBlocks() {
        assertEquals(6, geometry.indexBlockDataBlockAddresses());
        assertEquals(4, geometry.firstIndexedSuperBlock());
        assertEquals(25, geometry.indexBlockSuperBlockAddresses());
        // 4+1 + 8 + 4 elements x 8 + (6 + 25) x 8 + 4: the 298 bytes libhdf5 writes.
        assertEquals(298, ExtensibleArrayIndexBlock.size(geometry, ChunkRecordFormat.unfiltered()));
    }

    @Test
    void locatesElementsAcrossTheIndexBlockAndSuperBlocks() {
        assertEquals(new ExtensibleArrayGeometry.Location(-1, 0, 3), geometry.locate(3));
        assertEquals(new ExtensibleArrayGeometry.Location(0, 0, 0), geometry.locate(4));
        assertEquals(new ExtensibleArrayGeometry.Location(1, 0, 31), geometry.locate(4 + 16 + 31));
        assertEquals(new ExtensibleArrayGeometry.Location(2, 1, 0), geometry.locate(4 + 48 + 32));
        assertEquals(new ExtensibleArrayGeometry.Location(13, 0, 0),
                geometry.locate(4 + 16L * ((1L << 13) - 1)));
    }

    @Test
    void dataBlocksOfMoreThan1024ElementsArePaged() {
        assertEquals(0, geometry.pagesPerDataBlock(12));
        assertEquals(2, geometry.pagesPerDataBlock(13));
        assertFalse(new ExtensibleArrayDataBlock(geometry, ChunkRecordFormat.unfiltered(), 12)
                .isPaged());
        assertTrue(new ExtensibleArrayDataBlock(geometry, ChunkRecordFormat.unfiltered(), 13)
                .isPaged());
    }

    @Test
    void capacityIsTheIndexBlockPlusTwoToTheMaxBitsUntilThatOverflows() {
        assertEquals(4 + (1L << 32), geometry.capacity());
        assertEquals(4 + (1L << 62), new ExtensibleArrayGeometry(
                new ChunkIndexParameters.ExtensibleArray(62, 4, 4, 16, 10)).capacity());
        assertEquals(Long.MAX_VALUE, new ExtensibleArrayGeometry(
                new ChunkIndexParameters.ExtensibleArray(63, 4, 4, 16, 10)).capacity());
    }
}
