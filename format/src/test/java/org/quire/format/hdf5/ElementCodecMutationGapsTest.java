package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link ElementCodec}: which Java array holds which type's elements (the one check behind
 * every typed write and {@code encode}), their bytes in the type's order, and one number
 * given for a scalar attribute or fill value converted to the type, or refused.
 */
class ElementCodecMutationGapsTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final ByteOrder BIG = ByteOrder.BIG_ENDIAN;

    /**
     * Every array kind against every kind of number type: only the array of the type's width
     * and kind is accepted (an enumeration as its integer), encoded in the type's byte order;
     * any other is refused naming the array and the type.
     */
    @Test
    void eachArrayHoldsOnlyElementsOfItsWidthAndKind() {
        Map<String, Object> arrays = Map.of(
                "byte[]", new byte[] {1, -2},
                "short[]", new short[] {0x0102, -2},
                "int[]", new int[] {0x01020304, -2},
                "long[]", new long[] {0x0102030405060708L, -2},
                "float[]", new float[] {1.0f, -2.0f},
                "double[]", new double[] {1.0, -2.0});
        Map<Datatype, String> accepted = Map.of(
                Datatype.EnumType.BOOLEAN, "byte[]",
                Datatype.INT16.withByteOrder(BIG), "short[]",
                new Datatype.EnumType(Datatype.UINT32.withByteOrder(BIG),
                        List.of(new Datatype.EnumMember("A", 1))), "int[]",
                Datatype.UINT64, "long[]",
                Datatype.FLOAT32.withByteOrder(BIG), "float[]",
                Datatype.FLOAT64, "double[]");
        Map<String, String> bytes = Map.of(
                "byte[]", "01fe",
                "short[]", "0102fffe",
                "int[]", "01020304fffffffe",
                "long[]", "0807060504030201feffffffffffffff",
                "float[]", "3f800000c0000000",
                "double[]", "000000000000f03f00000000000000c0");
        for (Map.Entry<Datatype, String> type : accepted.entrySet()) {
            for (Map.Entry<String, Object> array : arrays.entrySet()) {
                String where = array.getKey() + " as " + type.getKey();
                if (array.getKey().equals(type.getValue())) {
                    assertEquals(bytes.get(array.getKey()), HEX.formatHex(ElementCodec.encode(
                            type.getKey(), array.getValue())), where);
                } else {
                    assertEquals("a " + array.getKey() + " does not hold elements of "
                            + type.getKey(), assertThrows(IllegalArgumentException.class,
                                    () -> ElementCodec.encode(type.getKey(), array.getValue()),
                                    where).getMessage());
                }
            }
        }
        Datatype text = Datatype.StringType.ascii(1);
        assertEquals("a byte[] does not hold elements of " + text, assertThrows(
                IllegalArgumentException.class,
                () -> ElementCodec.encode(text, new byte[] {'a'})).getMessage());
    }

    /**
     * A scalar of a number type from a long or a double: an integer type truncates a double
     * toward zero and keeps the low bytes of a long, an enumeration is its integer, a float
     * type rounds; a string type is no number type, either way.
     */
    @Test
    void oneNumberIsConvertedToTheTypeOrRefused() {
        assertEquals("feff", HEX.formatHex(ElementCodec.encodeOne(Datatype.INT16, -2.9)));
        assertEquals("02", HEX.formatHex(ElementCodec.encodeOne(Datatype.UINT8, 2.9)));
        assertEquals("3412", HEX.formatHex(ElementCodec.encodeOne(Datatype.UINT16,
                0x7f1234L)));
        assertEquals("01", HEX.formatHex(ElementCodec.encodeOne(Datatype.EnumType.BOOLEAN,
                1L)));
        assertEquals("01", HEX.formatHex(ElementCodec.encodeOne(Datatype.EnumType.BOOLEAN,
                1.0)));
        assertEquals("3f800000", HEX.formatHex(ElementCodec.encodeOne(
                Datatype.FLOAT32.withByteOrder(BIG), 1L)));
        assertEquals("3fb999999999999a", HEX.formatHex(ElementCodec.encodeOne(
                Datatype.FLOAT64.withByteOrder(BIG), 0.1)));
        Datatype text = Datatype.StringType.ascii(8);
        assertEquals("not a number type: " + text, assertThrows(IllegalArgumentException.class,
                () -> ElementCodec.encodeOne(text, 1L)).getMessage());
        assertEquals("not a number type: " + text, assertThrows(IllegalArgumentException.class,
                () -> ElementCodec.encodeOne(text, 1.0)).getMessage());
    }

    /**
     * Integers are read from integer and enumeration attributes only: a float attribute's
     * {@code longs()} is refused naming its type; a bool's are its 0 and 1.
     */
    @Test
    void onlyIntegerAndEnumerationElementsReadAsIntegers() {
        assertArrayEquals(new long[] {1, 0, 1}, Attribute.of("b", true, false, true).longs());
        Attribute real = Attribute.of("x", 1.5);
        assertEquals("not an integer type: " + Datatype.FLOAT64, assertThrows(
                IllegalArgumentException.class, real::longs).getMessage());
        assertEquals("FloatType[size=8, byteOrder=LITTLE_ENDIAN]", Datatype.FLOAT64.toString());
    }
}
