package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * Node capacities and record encodings of version-2 B-tree chunk indexes, as H5B2hdr.c and
 * H5Dbtree2.c derive them for libhdf5's default 2,048-byte nodes.
 */
class BTreeV2GeometryTest {

    @Test
    void unfilteredTwoDimensionalRecordsFit84ToALeafAnd61ToAnInternalNode() {
        BTreeV2ChunkRecord.Format format =
                new BTreeV2ChunkRecord.Format(ChunkRecordFormat.unfiltered(), 2, 4);
        assertEquals(24, format.size());
        assertEquals(10, format.type());
        BTreeV2Geometry geometry = new BTreeV2Geometry(2048, format.size());
        assertEquals((2048 - 10) / 24, geometry.capacity(0));
        assertEquals(1, geometry.recordCountSize());
        // depth 1: pointers of address + 1-byte count; (2048 - 10 - 9) / (24 + 9)
        assertEquals(9, geometry.childPointerSize(1));
        assertEquals(61, geometry.capacity(1));
        assertEquals(62L * 84 + 61, geometry.subtreeCapacity(1));
        assertEquals(2, geometry.subtreeCountSize(1));
        // depth 2: pointers also carry a 2-byte subtree total; (2048 - 10 - 11) / (24 + 11)
        assertEquals(11, geometry.childPointerSize(2));
        assertEquals(57, geometry.capacity(2));
        assertEquals(58L * 5269 + 57, geometry.subtreeCapacity(2));
        assertEquals(10 + 84 * 24, geometry.usedSize(0, 84));
        assertEquals(10 + 61 * 24 + 62 * 9, geometry.usedSize(1, 61));
    }

    @Test
    void filteredThreeDimensionalRecordsCarrySizeAndMask() {
        ChunkRecordFormat chunk = ChunkRecordFormat.filtered(2);
        assertEquals(2, chunk.chunkSizeWidth());
        BTreeV2ChunkRecord.Format format = new BTreeV2ChunkRecord.Format(chunk, 3, 4);
        assertEquals(11, format.type());
        assertEquals(8 + 2 + 4 + 3 * 8, format.size());
        BTreeV2Geometry geometry = new BTreeV2Geometry(2048, format.size());
        assertEquals(53, geometry.capacity(0));
        assertEquals(43, geometry.capacity(1));
    }

    @Test
    void subtreeCapacitiesGrowUntilTheyWouldOverflowALong() {
        BTreeV2Geometry geometry = new BTreeV2Geometry(2048, 24);
        int deepest = geometry.maxDepth();
        assertEquals(9, deepest, "depth with fewer than 2^63 records");
        for (int d = 1; d <= deepest; d++) {
            assertEquals((geometry.capacity(d) + 1) * geometry.subtreeCapacity(d - 1)
                    + geometry.capacity(d), geometry.subtreeCapacity(d), "depth " + d);
        }
    }

    @Test
    void nodesThatHoldFewerThanTwoRecordsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BTreeV2Geometry(40, 24));
        assertThrows(IllegalArgumentException.class, () -> new BTreeV2Geometry(1 << 24, 24));
    }

    @Test
    void aFilteredRecordIsAddressSizeMaskThenOffsets() throws Exception {
        BTreeV2ChunkRecord.Format format =
                new BTreeV2ChunkRecord.Format(ChunkRecordFormat.filtered(4000), 2, 4000);
        BTreeV2ChunkRecord record = new BTreeV2ChunkRecord(new long[] {3, 0x0102},
                new ChunkRecord(0x1122, 0x030201, 0x5));
        LittleEndianWriter out = new LittleEndianWriter();
        format.encode(record, out);
        byte[] bytes = out.toByteArray();
        assertEquals("2211000000000000" + "010203" + "05000000" + "0300000000000000"
                + "0201000000000000", HexFormat.of().formatHex(bytes));
        BTreeV2ChunkRecord back = format.decode(new LittleEndianReader(Path.of("x"), 0, "r",
                bytes));
        assertArrayEquals(record.scaled(), back.scaled());
        assertEquals(record.chunk(), back.chunk());
    }

    @Test
    void recordsOrderByOffsetsUnsignedDimensionZeroFirst() {
        assertEquals(-1, Integer.signum(BTreeV2ChunkRecord.compare(new long[] {1, 9},
                new long[] {2, 0})));
        assertEquals(1, Integer.signum(BTreeV2ChunkRecord.compare(new long[] {-1L, 0},
                new long[] {5, 0})));
        assertEquals(0, BTreeV2ChunkRecord.compare(new long[] {4, 4}, new long[] {4, 4}));
    }
}
