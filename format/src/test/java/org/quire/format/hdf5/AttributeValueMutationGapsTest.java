package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link Attribute} values of every kind: the factories' types, shapes and bytes, elements as
 * numbers and strings, a value that does not match its shape refused naming the attribute, and
 * an attribute no caller can change through the arrays it was given or returned.
 */
class AttributeValueMutationGapsTest {

    private static List<String> texts(List<byte[]> strings) {
        return strings.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void factoriesGiveH5pysTypesShapesAndBytes() {
        Attribute flags = Attribute.of("flags", true, false, true);
        assertEquals(Datatype.EnumType.BOOLEAN, flags.type());
        assertArrayEquals(new long[] {3}, flags.shape());
        assertArrayEquals(new byte[] {1, 0, 1}, flags.data());
        assertArrayEquals(new long[] {1, 0, 1}, flags.longs());

        Attribute scalar = Attribute.scalar("count", Datatype.INT32, -7);
        assertArrayEquals(new long[0], scalar.shape());
        assertEquals(1, scalar.elementCount());
        assertArrayEquals(new byte[] {-7, -1, -1, -1}, scalar.data());
        assertArrayEquals(new long[] {-7}, scalar.longs());

        Attribute ratio = Attribute.scalar("ratio", Datatype.FLOAT32, 0.25);
        assertArrayEquals(new double[] {0.25}, ratio.doubles());
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3e}, ratio.data());

        Attribute text = Attribute.of("title", "café");
        assertEquals(Datatype.VariableLengthStringType.UTF8, text.type());
        assertArrayEquals(new long[0], text.shape());
        assertArrayEquals(new byte[0], text.data());
        assertEquals("café", text.string());
        assertEquals(List.of("café"), texts(text.stringBytes()));
    }

    /** A fixed-length string's elements lose their padding, as h5py returns them. */
    @Test
    void fixedLengthStringsReadWithoutPadding() {
        Datatype.StringType type = Datatype.StringType.ascii(4);
        Attribute names = new Attribute("names", type, new long[] {3},
                "ab\0\0cdef\0\0\0\0".getBytes(StandardCharsets.US_ASCII));
        assertEquals(List.of("ab", "cdef", ""), texts(names.stringBytes()));
        assertEquals("ab", names.string());
        assertEquals(List.of(), names.strings());
        assertEquals(3, names.elementCount());
    }

    @Test
    void aValueThatDoesNotMatchItsShapeOrKindIsRefusedNamingTheAttribute() {
        Datatype strings = Datatype.VariableLengthStringType.UTF8;
        assertEquals("attribute s has 1 strings; its shape holds 2", assertThrows(
                IllegalArgumentException.class, () -> Attribute.ofStrings("s", strings,
                        new long[] {2}, List.of(new byte[] {'a'}))).getMessage());
        assertEquals("attribute s has 1 strings; its shape holds 1", assertThrows(
                IllegalArgumentException.class, () -> new Attribute("s", strings, new long[0],
                        new byte[1], List.of(new byte[] {'a'}))).getMessage());
        assertEquals("attribute n has 12 bytes; shape and type need 16", assertThrows(
                IllegalArgumentException.class, () -> new Attribute("n", Datatype.INT64,
                        new long[] {2}, new byte[12])).getMessage());
        assertEquals("attribute n has 8 bytes; shape and type need 8", assertThrows(
                IllegalArgumentException.class, () -> new Attribute("n", Datatype.INT64,
                        new long[0], new byte[8], List.of(new byte[] {'a'}))).getMessage());
    }

    @Test
    void elementsAsTextNeedAStringTypeAndAnElement() {
        assertEquals("attribute n is not a string: " + Datatype.INT64, assertThrows(
                IllegalStateException.class, () -> Attribute.of("n", 1L).string())
                .getMessage());
        Attribute none = Attribute.ofStrings("none", Datatype.VariableLengthStringType.UTF8,
                new long[] {0}, List.of());
        assertEquals(0, none.elementCount());
        assertEquals("attribute none holds no element", assertThrows(
                IllegalStateException.class, none::string).getMessage());
    }

    /** Arrays given to or returned by an attribute are copies: its value stays as made. */
    @Test
    void noCallerChangesAnAttributeThroughItsArrays() {
        long[] shape = {2};
        byte[] data = {1, 2};
        Attribute bytes = new Attribute("b", Datatype.INT8, shape, data);
        shape[0] = 9;
        data[0] = 9;
        bytes.shape()[0] = 7;
        bytes.data()[1] = 7;
        assertArrayEquals(new long[] {2}, bytes.shape());
        assertArrayEquals(new byte[] {1, 2}, bytes.data());

        byte[] string = {'a'};
        List<byte[]> given = new ArrayList<>(List.of(string));
        Attribute text = Attribute.ofStrings("t", Datatype.VariableLengthStringType.UTF8,
                new long[] {1}, given);
        string[0] = 'z';
        text.strings().get(0)[0] = 'y';
        text.stringBytes().get(0)[0] = 'x';
        assertEquals("a", text.string());
    }
}
