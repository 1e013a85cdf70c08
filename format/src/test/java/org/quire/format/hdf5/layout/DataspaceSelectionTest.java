package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Dataspace selections as virtual dataset mappings store them (specification IV.A.2.i and the
 * region reference encoding), built field by field: the bytes Quire writes, version 1 and 2
 * hyperslabs read back, the block count bounded by the bytes left, and the expansion of regular
 * hyperslabs bounded across one mapping block, each exactly at its limit.
 */
class DataspaceSelectionTest {

    private static final long AT = 64;

    private static LittleEndianReader at(byte[] bytes) {
        return new LittleEndianReader(Path.of("vds.h5"), AT, "virtual mapping", bytes);
    }

    private static DataspaceSelection decode(byte[] bytes, DataspaceSelection.Expansion expansion)
            throws Exception {
        LittleEndianReader in = at(bytes);
        DataspaceSelection selection = DataspaceSelection.decode(in, expansion);
        assertEquals(0, in.remaining(), "the whole selection is read");
        return selection;
    }

    private static DataspaceSelection decode(byte[] bytes) throws Exception {
        return decode(bytes, new DataspaceSelection.Expansion());
    }

    private static DataspaceSelection.Block block(long[] start, long[] count) {
        return new DataspaceSelection.Block(start, count);
    }

    /** A regular version-2 hyperslab: per dimension start, stride, count, block. */
    private static byte[] regular(long[]... dimensions) {
        LittleEndianWriter out = new LittleEndianWriter().putInt(2).putInt(2).putByte(1)
                .putInt(4 + 32 * dimensions.length).putInt(dimensions.length);
        for (long[] d : dimensions) {
            out.putLong(d[0]).putLong(d[1]).putLong(d[2]).putLong(d[3]);
        }
        return out.toByteArray();
    }

    @Test
    void allIsWrittenAsLibhdf5WritesItAndReadBack() throws Exception {
        byte[] bytes = DataspaceSelection.all().encode();
        assertEquals("03000000" + "01000000" + "00000000" + "00000000",
                HexFormat.of().formatHex(bytes));
        assertInstanceOf(DataspaceSelection.All.class, decode(bytes));
        assertTrue(DataspaceSelection.all().fitsVersion1());
    }

    @Test
    void aHyperslabIsWrittenAsVersion1WithInclusiveEndsAndReadBack() throws Exception {
        DataspaceSelection.Hyperslab two = new DataspaceSelection.Hyperslab(List.of(
                block(new long[] {0, 5}, new long[] {2, 3}), block(new long[] {10, 0}, new long[] {1, 1})));
        byte[] bytes = two.encode();
        // type 2, version 1, reserved, length 8 + 2 blocks x rank 2 x 8, rank 2, 2 blocks
        assertEquals("02000000" + "01000000" + "00000000" + "28000000" + "02000000" + "02000000"
                + "00000000" + "05000000" + "01000000" + "07000000"
                + "0a000000" + "00000000" + "0a000000" + "00000000",
                HexFormat.of().formatHex(bytes));
        assertEquals(two, decode(bytes));
        assertEquals(2, two.rank());
    }

    @Test
    void version1HoldsBlocksEndingAtExactly2To32Minus1() {
        assertTrue(DataspaceSelection.block(new long[] {0xfffffffeL}, new long[] {2}).fitsVersion1());
        assertFalse(DataspaceSelection.block(new long[] {0xfffffffeL}, new long[] {3}).fitsVersion1());
        assertFalse(DataspaceSelection.block(new long[] {0xffffffffL}, new long[] {2}).fitsVersion1());
        // Only the second block's second dimension is too far.
        assertFalse(new DataspaceSelection.Hyperslab(List.of(block(new long[] {0, 0}, new long[] {1, 1}),
                block(new long[] {1, 1L << 32}, new long[] {1, 1}))).fitsVersion1());
    }

    @Test
    void blocksAreEqualByStartAndCount() {
        DataspaceSelection.Block a = block(new long[] {1, 2}, new long[] {3, 4});
        assertEquals(a, block(new long[] {1, 2}, new long[] {3, 4}));
        assertEquals(a.hashCode(), block(new long[] {1, 2}, new long[] {3, 4}).hashCode());
        assertNotEquals(a, block(new long[] {1, 2}, new long[] {3, 5}));
        assertNotEquals(a, block(new long[] {0, 2}, new long[] {3, 4}));
        assertNotEquals(a.hashCode(), block(new long[] {3, 4}, new long[] {1, 2}).hashCode());
        assertNotEquals(a, "start [1, 2] count [3, 4]");
        assertEquals("start [1, 2] count [3, 4]", a.toString());
    }

    @Test
    void theBlockCountOfAVersion1HyperslabIsBoundedByTheBytesLeft() throws Exception {
        LittleEndianWriter exact = new LittleEndianWriter().putInt(2).putInt(1).putInt(0).putInt(24)
                .putInt(1).putInt(2).putInt(3).putInt(4).putInt(9).putInt(9);
        assertEquals(new DataspaceSelection.Hyperslab(List.of(block(new long[] {3}, new long[] {2}),
                block(new long[] {9}, new long[] {1}))), decode(exact.toByteArray()));
        byte[] oneTooMany = new LittleEndianWriter().putInt(2).putInt(1).putInt(0).putInt(24)
                .putInt(1).putInt(3).putInt(3).putInt(4).putInt(9).putInt(9).toByteArray();
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> decode(oneTooMany));
        assertEquals("number of blocks", e.field());
        assertEquals(AT + 20, e.offset());
    }

    @Test
    void theBlockCountOfAnIrregularVersion2HyperslabIsBoundedByTheBytesLeft() throws Exception {
        LittleEndianWriter head = new LittleEndianWriter().putInt(2).putInt(2).putByte(0).putInt(0)
                .putInt(1);
        byte[] exact = new LittleEndianWriter().putBytes(head.toByteArray()).putLong(2)
                .putLong(0).putLong(4).putLong(10).putLong(10).toByteArray();
        assertEquals(new DataspaceSelection.Hyperslab(List.of(block(new long[] {0}, new long[] {5}),
                block(new long[] {10}, new long[] {1}))), decode(exact));
        byte[] oneTooMany = new LittleEndianWriter().putBytes(head.toByteArray()).putLong(3)
                .putLong(0).putLong(4).putLong(10).putLong(10).toByteArray();
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> decode(oneTooMany));
        assertEquals("number of blocks", e.field());
    }

    @Test
    void aRegularHyperslabExpandsIntoItsBlocksInRowMajorOrder() throws Exception {
        // Two dimensions: rows 1 and 5 (stride 4), columns 0 and 2 (stride 2 = block: adjacent).
        DataspaceSelection.Hyperslab read = (DataspaceSelection.Hyperslab) decode(regular(
                new long[] {1, 4, 2, 1}, new long[] {0, 2, 2, 2}));
        assertEquals(List.of(block(new long[] {1, 0}, new long[] {1, 2}),
                block(new long[] {1, 2}, new long[] {1, 2}), block(new long[] {5, 0}, new long[] {1, 2}),
                block(new long[] {5, 2}, new long[] {1, 2})), read.blocks());
        // One block needs no stride at all.
        assertEquals(DataspaceSelection.block(new long[] {7}, new long[] {3}),
                decode(regular(new long[] {7, 0, 1, 3})));
    }

    @Test
    void overlappingRegularBlocksAreCorrupt() {
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> decode(regular(new long[] {0, 1, 2, 2})));
        assertEquals(AT, e.offset());
        assertEquals("regular hyperslab", e.field());
        assertEquals("start 0, stride 1, count 2, block 2 in dimension 0", e.found());
    }

    @Test
    void regularExpansionStopsExactlyAtTheLimitAcrossSelections() throws Exception {
        // Rank 32: 32 coordinates a block, so 2^15 blocks are the 2^20 coordinates allowed.
        long[][] dimensions = new long[32][];
        dimensions[0] = new long[] {0, 1, 1 << 15, 1};
        for (int d = 1; d < 32; d++) {
            dimensions[d] = new long[] {0, 1, 1, 1};
        }
        DataspaceSelection.Expansion expansion = new DataspaceSelection.Expansion();
        assertEquals(1 << 15, ((DataspaceSelection.Hyperslab) decode(regular(dimensions), expansion))
                .blocks().size());
        // Nothing is left for the next selection of the same mapping block.
        UnsupportedFormatException next = assertThrows(UnsupportedFormatException.class,
                () -> decode(regular(new long[] {0, 1, 1, 1}), expansion));
        assertTrue(next.found().contains("than the 0 left after 1048576 in earlier selections"),
                next.found());
        dimensions[0] = new long[] {0, 1, (1 << 15) + 1, 1};
        UnsupportedFormatException oneMore = assertThrows(UnsupportedFormatException.class,
                () -> decode(regular(dimensions)));
        assertEquals(AT, oneMore.offset());
        assertEquals("at most 1048576 across a virtual dataset's mappings", oneMore.supported());
    }
}
