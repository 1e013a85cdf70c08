package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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

    /** H5B2hdr.c refuses nodes that do not fit the 2-byte record counts; Quire also memory. */
    @Test
    void nodeSizesAreAcceptedUpToTheLargestArrayAndLeavesUpTo65535Records() {
        // 2^31 - 1 bytes: a leaf of 53,687 records of 40,000 bytes; one byte more is refused.
        BTreeV2Geometry largest = new BTreeV2Geometry(Integer.MAX_VALUE, 40_000);
        assertEquals((Integer.MAX_VALUE - 10) / 40_000, largest.capacity(0));
        assertEquals(Integer.MAX_VALUE, largest.nodeSize());
        IllegalArgumentException memory = assertThrows(IllegalArgumentException.class,
                () -> new BTreeV2Geometry(1L << 31, 40_000));
        assertEquals("nodes of 2147483648 bytes do not fit in memory", memory.getMessage());

        // 65,535 one-byte records: counts of 2 bytes; 65,536 do not fit a count.
        BTreeV2Geometry widest = new BTreeV2Geometry(10 + 65_535, 1);
        assertEquals(65_535, widest.capacity(0));
        assertEquals(2, widest.recordCountSize());
        // depth 1: pointers of address + 2-byte count, (65,545 - 10 - 10) / (1 + 10)
        assertEquals(5_956, widest.capacity(1));
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
                () -> new BTreeV2Geometry(10 + 65_536, 1));
        assertEquals("nodes of 65546 bytes hold 65536 records of 1 bytes; need 2..65535",
                many.getMessage());
    }

    /** The count fields are floor(log2(max) / 8) + 1 bytes (H5VM_limit_enc_size): 255 one, 256 two. */
    @Test
    void leavesOf255RecordsCountInOneByteAnd256InTwo() {
        BTreeV2Geometry one = new BTreeV2Geometry(10 + 255 * 8, 8);
        assertEquals(255, one.capacity(0));
        assertEquals(1, one.recordCountSize());
        assertEquals(8 + 1, one.childPointerSize(1));
        BTreeV2Geometry two = new BTreeV2Geometry(10 + 256 * 8, 8);
        assertEquals(256, two.capacity(0));
        assertEquals(2, two.recordCountSize());
        assertEquals(8 + 2, two.childPointerSize(1));
    }

    /**
     * The smallest tree: 237-byte nodes of 100-byte records hold 2 records in a leaf and 2 in an
     * internal node ((237 - 10 - 9) / (100 + 9)); at depth 2 the pointers carry a 1-byte
     * subtree total (at most 3 * 2 + 2 = 8) and only 1 record fits, so depth 1 is the deepest.
     */
    @Test
    void internalNodesOfExactlyTwoRecordsAreTheSmallestTree() {
        BTreeV2Geometry smallest = new BTreeV2Geometry(237, 100);
        assertEquals(2, smallest.capacity(0));
        assertEquals(2, smallest.capacity(1));
        assertEquals(8, smallest.subtreeCapacity(1));
        assertEquals(1, smallest.subtreeCountSize(1));
        assertEquals(1, smallest.maxDepth());
        // One byte less: the leaf still holds 2, an internal node 1.
        IllegalArgumentException internal = assertThrows(IllegalArgumentException.class,
                () -> new BTreeV2Geometry(236, 100));
        assertEquals("internal nodes of 236 bytes hold fewer than 2 records of 100 bytes",
                internal.getMessage());
        IllegalArgumentException leaf = assertThrows(IllegalArgumentException.class,
                () -> new BTreeV2Geometry(209, 100));
        assertEquals("nodes of 209 bytes hold 1 records of 100 bytes; need 2..65535",
                leaf.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> new BTreeV2Geometry(2048, 0));
        assertEquals("nodes of 2048 bytes hold 0 records of 0 bytes; need 2..65535",
                empty.getMessage());
    }

    /** The geometry made last is reused only for the same node and record size. */
    @Test
    void theLastGeometryIsReusedOnlyForTheSameSizes() {
        BTreeV2Geometry first = BTreeV2Geometry.of(2048, 24);
        assertSame(first, BTreeV2Geometry.of(2048, 24));
        BTreeV2Geometry otherRecord = BTreeV2Geometry.of(2048, 28);
        assertEquals(28, otherRecord.recordSize());
        assertEquals((2048 - 10) / 28, otherRecord.capacity(0));
        BTreeV2Geometry otherNode = BTreeV2Geometry.of(4096, 28);
        assertEquals(4096, otherNode.nodeSize());
        assertEquals((4096 - 10) / 28, otherNode.capacity(0));
        assertSame(otherNode, BTreeV2Geometry.of(4096, 28));
    }
}
