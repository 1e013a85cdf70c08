package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;

/**
 * The bounds of {@link LittleEndianReader}: every read ending exactly at the structure's end
 * succeeds, one byte more fails at the field's absolute offset, and a reader over part of an
 * array (a slice, or offset and length) never reads the array's bytes beyond its own end.
 */
class LittleEndianReaderTest {

    private static final Path FILE = Path.of("bounds.h5");
    /** Absolute offset of the structure's first byte. */
    private static final long BASE = 100;

    /** Bytes 0x10, 0x11, ... 0x1f: the structure is 0x12..0x19, then the array goes on. */
    private static byte[] array() {
        byte[] bytes = new byte[16];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (0x10 + i);
        }
        return bytes;
    }

    /** A reader over bytes 2 to 9 of {@link #array()}, moved {@code at} bytes in. */
    private static LittleEndianReader eightBytesAt(int at) throws CorruptFileException {
        LittleEndianReader in = new LittleEndianReader(FILE, BASE, "test structure", array(), 2, 8);
        if (at > 0) {
            in.skip(at);
        }
        return in;
    }

    private interface Read {
        void from(LittleEndianReader in) throws CorruptFileException;
    }

    private record Case(String name, int width, Read read) {
    }

    private static List<Case> everyRead() {
        return List.of(
                new Case("skip", 3, in -> in.skip(3)),
                new Case("byte", 1, in -> in.getUnsignedByte("field")),
                new Case("short", 2, in -> in.getUnsignedShort("field")),
                new Case("int", 4, in -> in.getInt("field")),
                new Case("long", 8, in -> in.getLong("field")),
                new Case("address", 8, in -> in.getAddress("field")),
                new Case("length", 8, in -> in.getLength("field")),
                new Case("3 bytes", 3, in -> in.getUnsigned(3, "field")),
                new Case("bytes", 5, in -> in.getBytes(5, "field")),
                new Case("string", 5, in -> in.getString(5, "field")),
                new Case("slice", 5, in -> in.slice(5, "field")),
                new Case("count", 2, in -> in.getCount(2, 0xffff, "field")));
    }

    @Test
    void eachReadEndingAtTheStructuresEndSucceedsAndOneByteMoreFailsAtTheField() throws Exception {
        for (Case c : everyRead()) {
            LittleEndianReader exact = eightBytesAt(8 - c.width());
            c.read().from(exact);
            assertEquals(8, exact.position() - 2, c.name());
            assertEquals(0, exact.remaining(), c.name());

            int start = 8 - c.width() + 1;
            LittleEndianReader over = eightBytesAt(start);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> c.read().from(over), c.name());
            assertEquals(BASE + 2 + start, e.offset(), c.name());
            assertEquals("test structure", e.structure(), c.name());
            assertEquals(c.name().equals("skip") ? "bytes" : "field", e.field(), c.name());
            assertEquals(c.width() + " more bytes inside the structure", e.expected(), c.name());
            assertEquals((c.width() - 1) + " bytes left", e.found(), c.name());
            assertEquals(FILE, e.file(), c.name());
            assertEquals(start + 2, over.position(), c.name() + ": nothing consumed");
        }
    }

    @Test
    void negativeCountsAreRefusedWithoutMovingBack() throws Exception {
        for (Read read : List.<Read>of(in -> in.skip(-1), in -> in.getBytes(-1, "field"),
                in -> in.slice(-1, "field"), in -> in.getString(-1, "field"))) {
            LittleEndianReader in = eightBytesAt(4);
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> read.from(in));
            assertEquals("-1 more bytes inside the structure", e.expected());
            assertEquals("4 bytes left", e.found());
            assertEquals(BASE + 6, e.offset());
            assertEquals(6, in.position());
        }
    }

    @Test
    void valuesAreLittleEndianFromTheReadersOffset() throws Exception {
        LittleEndianReader in = eightBytesAt(0);
        assertEquals(BASE + 2, in.absolutePosition());
        assertEquals(0x12, in.getUnsignedByte("b"));
        assertEquals(0x1413, in.getUnsignedShort("s"));
        assertEquals(0x18171615, in.getInt("i"));
        assertEquals(BASE + 9, in.absolutePosition());
        assertEquals(1, in.remaining());
        assertEquals(0x19, eightBytesAt(7).duplicate().getUnsignedByte("x"));
        assertEquals(0x1918171615141312L, eightBytesAt(0).getLong("l"));
        assertEquals(0xffffffffL, new LittleEndianReader(FILE, 0, "s",
                new byte[] {-1, -1, -1, -1}).getInt("i") & 0xffffffffL);
        assertArrayEquals(new byte[] {0x15, 0x16}, eightBytesAt(3).getBytes(2, "b"));
    }

    @Test
    void aSliceEndsWhereItWasCutAndMovesItsParentOn() throws Exception {
        LittleEndianReader parent = eightBytesAt(1);
        LittleEndianReader slice = parent.slice(3, "part");
        assertEquals(6, parent.position());
        assertEquals(3, slice.position());
        assertEquals(3, slice.remaining());
        assertEquals(BASE + 3, slice.absolutePosition());
        assertEquals(0x151413, slice.getUnsigned(3, "all"));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> slice.getUnsignedByte("past"));
        assertEquals(BASE + 6, e.offset());
        assertEquals("0 bytes left", e.found());
        // The parent reads on from where the slice ends.
        assertEquals(0x16, parent.getUnsignedByte("next"));
    }

    @Test
    void aDuplicateMovesOnItsOwnWithinTheSameEnd() throws Exception {
        LittleEndianReader in = eightBytesAt(5);
        LittleEndianReader copy = in.duplicate();
        assertEquals(0x1817, copy.getUnsignedShort("s"));
        assertEquals(7, in.position());
        assertEquals(0x17, in.getUnsignedByte("b"));
        assertEquals(0x19, copy.getUnsignedByte("last"));
        assertThrows(CorruptFileException.class, () -> copy.getUnsignedByte("past"));
        assertEquals("test structure", copy.structure());
        assertEquals(FILE, copy.file());
    }

    @Test
    void countsAreAcceptedUpToTheirMaximumAndRefusedAtTheirField() throws Exception {
        byte[] bytes = {(byte) 0xe8, 0x03, (byte) 0xe9, 0x03, -1, -1, -1, -1, -1, -1, -1, -1};
        LittleEndianReader in = new LittleEndianReader(FILE, 40, "heap", bytes);
        assertEquals(1000, in.getCount(2, 1000, "size"));
        CorruptFileException above = assertThrows(CorruptFileException.class,
                () -> in.getCount(2, 1000, "size"));
        assertEquals(42, above.offset());
        assertEquals("size", above.field());
        assertEquals("at most 1000", above.expected());
        assertEquals("1001", above.found());
        CorruptFileException negative = assertThrows(CorruptFileException.class,
                () -> in.getCount(8, Integer.MAX_VALUE, "length"));
        assertEquals(44, negative.offset());
        assertEquals("18446744073709551615", negative.found());
    }

    @Test
    void stringsEndAtTheFirstNulOrTheirField() throws Exception {
        byte[] bytes = {'a', 'b', 0, 'c', 'd', 'e', 'f', 'g'};
        LittleEndianReader in = new LittleEndianReader(FILE, 0, "names", bytes);
        assertEquals("ab", in.getString(4, "name"));
        assertEquals(4, in.position());
        assertEquals("def", in.getString(3, "name"));
        assertEquals("g", in.getString(1, "name"));
        assertEquals("", new LittleEndianReader(FILE, 0, "n", new byte[] {0, 'x'})
                .getString(2, "name"));
    }
}
