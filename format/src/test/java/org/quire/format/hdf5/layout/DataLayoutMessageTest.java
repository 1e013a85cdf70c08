package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Chunked data layout messages (specification IV.A.2.i), versions 4 and 3, at the limits of each
 * field: dimensionality from 2, encoded lengths 1 to 8, chunk dimensions up to 2^32 - 1 and
 * element sizes up to 2^31 - 1, built field by field.
 */
class DataLayoutMessageTest {

    private static final long AT = 200;

    private static LittleEndianReader at(byte[] bytes) {
        return new LittleEndianReader(Path.of("layout.h5"), AT, "data layout message", bytes);
    }

    /** Version 4, chunked, no flags, rank 1 with {@code width}-byte sizes, implicit index. */
    private static byte[] version4(int dimensionality, int width, long chunk, long elementSize) {
        LittleEndianWriter out = new LittleEndianWriter().putByte(4).putByte(2).putByte(0)
                .putByte(dimensionality).putByte(width);
        for (int d = 0; d < dimensionality - 1; d++) {
            out.putUnsigned(chunk, width);
        }
        return out.putUnsigned(elementSize, width).putByte(2).putAddress(4096).toByteArray();
    }

    private static DataLayoutMessage decode(byte[] bytes) throws Exception {
        LittleEndianReader in = at(bytes);
        DataLayoutMessage message = DataLayoutMessage.decode(in);
        assertEquals(0, in.remaining());
        return message;
    }

    @Test
    void encodedLengthsOf1And8AreReadAnd0And9Refused() throws Exception {
        DataLayoutMessage one = decode(version4(2, 1, 255, 255));
        assertArrayEquals(new long[] {255}, one.chunkDimensions());
        assertEquals(255, one.elementSize());
        assertEquals(new ChunkIndexParameters.Implicit(), one.index());
        assertEquals(4096, one.indexAddress());
        DataLayoutMessage eight = decode(version4(2, 8, 0xffffffffL, Integer.MAX_VALUE));
        assertArrayEquals(new long[] {0xffffffffL}, eight.chunkDimensions());
        assertEquals(Integer.MAX_VALUE, eight.elementSize());
        for (int width : new int[] {0, 9}) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> decode(version4(2, width, 1, 1)));
            assertEquals(AT + 4, e.offset());
            assertEquals("dimension size encoded length", e.field());
            assertEquals(Integer.toString(width), e.found());
        }
    }

    @Test
    void chunkDimensionsAndElementSizesOneBeyondTheirLimitsAreCorruptAtTheirField() {
        CorruptFileException chunk = assertThrows(CorruptFileException.class,
                () -> decode(version4(2, 8, 1L << 32, 4)));
        assertEquals(AT + 5, chunk.offset());
        assertEquals("chunk dimension size", chunk.field());
        assertEquals("4294967296", chunk.found());
        CorruptFileException element = assertThrows(CorruptFileException.class,
                () -> decode(version4(2, 8, 1, 1L << 31)));
        assertEquals(AT + 13, element.offset());
        assertEquals("element size", element.field());
        assertEquals("2147483648", element.found());
        CorruptFileException zero = assertThrows(CorruptFileException.class,
                () -> decode(version4(2, 4, 0, 4)));
        assertEquals("chunk dimension size", zero.field());
    }

    @Test
    void aDimensionalityBelow2IsCorruptAtItsField() {
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> decode(version4(1, 4, 1, 4)));
        assertEquals(AT + 3, e.offset());
        assertEquals("dimensionality", e.field());
        assertEquals("1", e.found());
    }

    @Test
    void otherVersionsAndClassesAreUnsupported() {
        byte[] version3 = version4(2, 4, 1, 4);
        version3[0] = 3;
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> decode(version3));
        assertEquals(AT, e.offset());
        assertEquals("version 3, class 2", e.found());
        byte[] contiguous = version4(2, 4, 1, 4);
        contiguous[1] = 1;
        e = assertThrows(UnsupportedFormatException.class, () -> decode(contiguous));
        assertEquals("version 4, class 1", e.found());
    }

    /** Version 3 chunked fields after version and class: dimensionality, address, 4-byte sizes. */
    private static LittleEndianReader version3(int dimensionality, long... sizes) {
        LittleEndianWriter out = new LittleEndianWriter().putByte(dimensionality).putAddress(800);
        for (long size : sizes) {
            out.putInt((int) size);
        }
        return new LittleEndianReader(Path.of("layout.h5"), AT + 2, "data layout message",
                out.toByteArray());
    }

    @Test
    void version3SizesAreReadUpTo2To31Minus1() throws Exception {
        DataLayoutMessage read = DataLayoutMessage.decodeVersion3Chunked(
                version3(3, Integer.MAX_VALUE, 1, Integer.MAX_VALUE), AT);
        assertArrayEquals(new long[] {Integer.MAX_VALUE, 1}, read.chunkDimensions());
        assertEquals(Integer.MAX_VALUE, read.elementSize());
        assertEquals(800, read.indexAddress());
        CorruptFileException chunk = assertThrows(CorruptFileException.class,
                () -> DataLayoutMessage.decodeVersion3Chunked(version3(2, 1L << 31, 4), AT));
        assertEquals(AT + 2 + 9, chunk.offset());
        assertEquals("chunk dimension size", chunk.field());
        assertEquals("2147483648", chunk.found());
        CorruptFileException element = assertThrows(CorruptFileException.class,
                () -> DataLayoutMessage.decodeVersion3Chunked(version3(2, 1, 0), AT));
        assertEquals(AT + 2 + 13, element.offset());
        assertEquals("element size", element.field());
        CorruptFileException rank = assertThrows(CorruptFileException.class,
                () -> DataLayoutMessage.decodeVersion3Chunked(version3(1, 4), AT));
        assertEquals(AT + 2, rank.offset());
        assertEquals("dimensionality", rank.field());
    }
}
