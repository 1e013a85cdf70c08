package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * What {@link Datatype}'s records say to a caller that DatatypeRoundTripMutationGapsTest does
 * not read back from a file: a fixed-length string that does not fit is refused with the room
 * its padding leaves, a fixed-length string decodes in its own character set, and every type
 * names the byte order its numbers are stored in.
 */
class DatatypeMutationGapsTest {

    private static final HexFormat HEX = HexFormat.of();

    /**
     * A NUL-terminated string of 4 bytes holds 3 bytes of text; NUL- and space-padded ones
     * hold all 4. One byte more is refused, naming the text, its length and the room.
     */
    @Test
    void aFixedStringHoldsItsSizeLessTheTerminator() {
        Datatype.StringType terminated = new Datatype.StringType(4,
                Datatype.StringPadding.NULL_TERMINATED, false);
        Datatype.StringType padded = Datatype.StringType.ascii(4);
        Datatype.StringType spaced = new Datatype.StringType(4,
                Datatype.StringPadding.SPACE_PADDED, false);
        assertEquals("61626300", HEX.formatHex(terminated.encode("abc")));
        assertEquals("61626364", HEX.formatHex(padded.encode("abcd")));
        assertEquals("61626364", HEX.formatHex(spaced.encode("abcd")));
        assertEquals("\"abcd\" needs 4 bytes; the string type holds 3",
                assertThrows(IllegalArgumentException.class, () -> terminated.encode("abcd"))
                        .getMessage());
        assertEquals("\"abcde\" needs 5 bytes; the string type holds 4",
                assertThrows(IllegalArgumentException.class, () -> padded.encode("abcde"))
                        .getMessage());
        // UTF-8 counts bytes, not characters: e-acute takes two of the three.
        Datatype.StringType utf8 = new Datatype.StringType(4,
                Datatype.StringPadding.NULL_TERMINATED, true);
        assertEquals("\"a\u00e9b\" needs 4 bytes; the string type holds 3",
                assertThrows(IllegalArgumentException.class, () -> utf8.encode("a\u00e9b"))
                        .getMessage());
    }

    /**
     * The same bytes, the second element of two, decode as UTF-8 text when the type says so and
     * as two replacement characters in ASCII; trailing NULs go, an embedded one stays.
     */
    @Test
    void aFixedStringDecodesInItsCharacterSet() {
        byte[] elements = HEX.parseHex("6100000000" + "c3a9000000");
        Datatype.StringType utf8 = new Datatype.StringType(5,
                Datatype.StringPadding.NULL_PADDED, true);
        Datatype.StringType ascii = Datatype.StringType.ascii(5);
        assertEquals("a", utf8.decode(elements, 0));
        assertEquals("\u00e9", utf8.decode(elements, 5));
        assertEquals("\ufffd\ufffd", ascii.decode(elements, 5));
        assertEquals("a\u0000b", ascii.decode(HEX.parseHex("6100620000"), 0));
    }

    /**
     * Strings and compounds are little-endian by definition; an enumeration and an array are
     * in their base type's order; the typed constructors keep the order they were given.
     */
    @Test
    void everyTypeNamesItsByteOrder() {
        ByteOrder little = ByteOrder.LITTLE_ENDIAN;
        ByteOrder big = ByteOrder.BIG_ENDIAN;
        assertEquals(little, Datatype.StringType.ascii(3).byteOrder());
        assertEquals(little, Datatype.VariableLengthStringType.UTF8.byteOrder());
        assertEquals(little, Datatype.CompoundType.packed(List.of("x"),
                List.of(Datatype.INT32.withByteOrder(big))).byteOrder());
        Datatype.IntegerType i32be = Datatype.INT32.withByteOrder(big);
        assertEquals(big, i32be.byteOrder());
        assertEquals(big, new Datatype.EnumType(i32be, List.of(
                new Datatype.EnumMember("ONE", 1))).byteOrder());
        assertEquals(little, Datatype.EnumType.BOOLEAN.byteOrder());
        assertEquals(big, new Datatype.ArrayType(i32be, 2).byteOrder());
        assertEquals(big, Datatype.FLOAT64.withByteOrder(big).byteOrder());
    }
}
