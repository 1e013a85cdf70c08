package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * The doubling table and heap IDs of the heaps libhdf5 1.10.8 creates for dense links and
 * attributes (width 4, 512-byte starting blocks, 64 KiB direct blocks, 32-bit heap, 4 KiB
 * managed objects; h5debug prints the derived values checked here).
 */
class FractalHeapIdTest {

    private static final FractalHeapDoublingTable LIBHDF5 =
            new FractalHeapDoublingTable(4, 512, 65536, 32, 4096);

    private static FractalHeapHeader header(int idLength) {
        return new FractalHeapHeader(idLength, true, 4096, Addresses.UNDEFINED, 0, LIBHDF5,
                Addresses.UNDEFINED, 0);
    }

    private static FractalHeapId decode(String hex, int idLength) throws Exception {
        byte[] id = HexFormat.of().parseHex(hex);
        return FractalHeapId.decode(new LittleEndianReader(Path.of("x.h5"), 100, "heap ID", id),
                header(idLength));
    }

    @Test
    void theDoublingTableMatchesWhatH5debugPrintsForLibhdf5sDefaults() {
        assertEquals(22, LIBHDF5.maxRootRows());
        assertEquals(9, LIBHDF5.maxDirectRows());
        assertEquals(512, LIBHDF5.rowBlockSize(0));
        assertEquals(512, LIBHDF5.rowBlockSize(1));
        assertEquals(65536, LIBHDF5.rowBlockSize(8));
        assertEquals(0, LIBHDF5.rowOffset(0));
        assertEquals(2048, LIBHDF5.rowOffset(1));
        assertEquals(4096, LIBHDF5.rowOffset(2));
        assertEquals(4L * 128 * 1024, LIBHDF5.rowOffset(9));
        assertEquals(0, LIBHDF5.rowOf(2047));
        assertEquals(1, LIBHDF5.rowOf(2048));
        assertEquals(9, LIBHDF5.rowOf(4L * 128 * 1024));
        // A child indirect block in row 9 spans 128 KiB: 7 rows of its own.
        assertEquals(7, LIBHDF5.indirectRows(9));
        // 1 + 4 + 2 = 7 bytes: libhdf5's H5G_DENSE_FHEAP_ID_LEN.
        assertEquals(4, LIBHDF5.heapOffsetSize());
        assertEquals(2, LIBHDF5.heapLengthSize());
    }

    @Test
    void rejectsTablesThatAreNotPowersOfTwoOrTooLarge() {
        assertThrows(IllegalArgumentException.class,
                () -> new FractalHeapDoublingTable(3, 512, 65536, 32, 4096));
        assertThrows(IllegalArgumentException.class,
                () -> new FractalHeapDoublingTable(4, 500, 65536, 32, 4096));
        assertThrows(IllegalArgumentException.class,
                () -> new FractalHeapDoublingTable(4, 512, 1L << 31, 32, 4096));
        assertThrows(IllegalArgumentException.class,
                () -> new FractalHeapDoublingTable(4, 512, 65536, 65, 4096));
    }

    @Test
    void decodesManagedTinyAndHugeIds() throws Exception {
        assertEquals(new FractalHeapId.Managed(0x0a0b0c, 0x0123),
                decode("00" + "0c0b0a00" + "2301", 7));
        FractalHeapId.Tiny tiny = (FractalHeapId.Tiny) decode("22" + "616263" + "000000", 8);
        assertArrayEquals("abc".getBytes(), tiny.bytes());
        // IDs over 18 bytes give tiny objects a 12-bit length.
        FractalHeapId.Tiny extended = (FractalHeapId.Tiny) decode("20" + "11" + "41".repeat(18),
                20);
        assertEquals(18, extended.bytes().length);
        assertEquals(new FractalHeapId.HugeByKey(0x0706050403020100L >>> 8),
                decode("10" + "01020304050607", 8));
        assertEquals(new FractalHeapId.HugeDirect(0x1000, 0x20),
                decode("10" + "0010000000000000" + "2000000000000000", 17));
    }

    @Test
    void rejectsUnknownVersionsAndTypes() {
        assertThrows(UnsupportedFormatException.class, () -> decode("40" + "000000000000", 7));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> decode("30" + "000000000000", 7));
        assertEquals(100, e.offset());
    }

    @Test
    void tinyLengthsWidenAndHugeIdsHoldAddressesExactlyPastTheirLimits() throws Exception {
        // 18-byte IDs keep the 4-bit length; from 19 bytes a second byte extends it to 12 bits.
        assertEquals(16, ((FractalHeapId.Tiny) decode("2f" + "41".repeat(17), 18)).bytes().length);
        assertEquals(257, ((FractalHeapId.Tiny) decode("21" + "00" + "41".repeat(257), 19)).bytes().length);
        // A huge object's address and length need 1 + 8 + 8 bytes; one byte less holds a key of at most 8.
        assertEquals(new FractalHeapId.HugeByKey(0x0807060504030201L),
                decode("10" + "0102030405060708" + "00".repeat(7), 16));
        assertEquals(new FractalHeapId.HugeByKey(0x030201), decode("10" + "010203", 4));
        assertEquals(new FractalHeapId.HugeDirect(0x0807060504030201L, 9),
                decode("10" + "0102030405060708" + "0900000000000000", 17));
    }

    @Test
    void doublingTableLimitsAreInclusive() {
        FractalHeapDoublingTable largest = new FractalHeapDoublingTable(1, 1L << 30, 1L << 30, 64, 1);
        assertEquals(8, largest.heapOffsetSize());
        assertEquals(35, largest.maxRootRows(), "64 heap bits less the first row's 30, plus that row");
        FractalHeapDoublingTable tight = new FractalHeapDoublingTable(4, 512, 512, 11, 4096);
        assertEquals(1, tight.maxRootRows(), "a heap exactly as large as its first row");
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> new FractalHeapDoublingTable(4, 512, 512, 10, 4096));
        assertEquals("a heap of 10 bits is smaller than its first row of 11 bits", small.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FractalHeapDoublingTable(4, 1024, 512, 32, 4096));
        assertThrows(IllegalArgumentException.class, () -> new FractalHeapDoublingTable(4, 512, 65536, 32, 0));
    }

    @Test
    void managedObjectLengthsTakeTheSmallerOfTheBlockOffsetAndTheObjectLimitEncodings() {
        // H5HF_hdr_finish_init: min(bytes of a direct block offset, log2(max managed size) / 8 + 1).
        assertEquals(1, new FractalHeapDoublingTable(4, 512, 65536, 32, 100).heapLengthSize());
        assertEquals(2, new FractalHeapDoublingTable(4, 512, 65536, 32, 256).heapLengthSize());
        assertEquals(3, new FractalHeapDoublingTable(4, 512, 1L << 20, 32, 1L << 20).heapLengthSize());
        assertEquals(2, new FractalHeapDoublingTable(4, 512, 512, 32, 1L << 20).heapLengthSize(),
                "offsets in a 512-byte block need 2 bytes, objects of 1 MiB would need 3");
    }
}
