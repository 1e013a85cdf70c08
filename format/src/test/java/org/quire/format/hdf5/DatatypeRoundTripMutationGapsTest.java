package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every datatype Quire writes, stored as an attribute, closed and read back: the same type
 * (datatype message written by {@code Datatypes.describe}, read by {@code Datatypes.of}), the
 * same bytes and the values a user reads. Integers of every size, signed and unsigned, in both
 * byte orders, at their extreme values (the existing tests wrote the four numpy widths in one
 * order each, and no 3-, 5-, 6- or 7-byte integer in the JVM).
 */
class DatatypeRoundTripMutationGapsTest {

    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    /**
     * One integer type's four test values and their big-endian bytes, written out: signed
     * minimum, maximum, -1 and 1; unsigned 0, maximum, the top bit alone and 1.
     */
    private record Case(Datatype.IntegerType type, long[] values, List<String> bigEndianHex) {

        static Case of(int size, boolean signed, ByteOrder order) {
            String zeros = "00".repeat(size - 1);
            String ones = "ff".repeat(size - 1);
            long top = 1L << (8 * size - 1); // 8 bytes: Long.MIN_VALUE, the top bit alone
            long[] values;
            List<String> hex;
            if (signed) {
                values = new long[] {-top, top - 1, -1, 1};
                hex = List.of("80" + zeros, "7f" + ones, "ff" + ones, zeros + "01");
            } else {
                values = new long[] {0, size == 8 ? -1 : 2 * top - 1, top, 1};
                hex = List.of("00" + zeros, "ff" + ones, "80" + zeros, zeros + "01");
            }
            return new Case(new Datatype.IntegerType(size, signed, order), values, hex);
        }

        String name() {
            return (type.signed() ? "i" : "u") + type.size()
                    + (type.byteOrder() == ByteOrder.BIG_ENDIAN ? "be" : "le");
        }

        /** The elements as the file stores them, in the type's byte order. */
        byte[] stored() {
            byte[] out = new byte[values.length * type.size()];
            for (int i = 0; i < values.length; i++) {
                byte[] big = HEX.parseHex(bigEndianHex.get(i));
                for (int b = 0; b < big.length; b++) {
                    int at = type.byteOrder() == ByteOrder.BIG_ENDIAN ? b : big.length - 1 - b;
                    out[i * type.size() + at] = big[b];
                }
            }
            return out;
        }
    }

    private static List<Case> integerCases() {
        List<Case> cases = new ArrayList<>();
        for (int size = 1; size <= 8; size++) {
            for (boolean signed : new boolean[] {true, false}) {
                for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
                    cases.add(Case.of(size, signed, order));
                }
            }
        }
        return cases;
    }

    /**
     * Each value encoded by the type is the bytes written out above; the attribute read back
     * has the same type, bytes and values, as longs and as doubles (an unsigned 64-bit
     * maximum is 2^64, the top bit alone 2^63, not negative).
     */
    @Test
    void integersOfEverySizeSignAndByteOrderKeepTheirExtremeValues() throws IOException {
        Path file = dir.resolve("integers.h5");
        List<Case> cases = integerCases();
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            for (Case c : cases) {
                byte[] encoded = new byte[0];
                for (long value : c.values()) {
                    encoded = concat(encoded, c.type().encode(value));
                }
                assertEquals(HEX.formatHex(c.stored()), HEX.formatHex(encoded), c.name());
                hdf5.root().setAttribute(new Attribute(c.name(), c.type(), new long[] {4},
                        encoded));
            }
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            for (Case c : cases) {
                Attribute read = hdf5.root().attribute(c.name());
                assertEquals(c.type(), read.type(), c.name());
                assertEquals(HEX.formatHex(c.stored()), HEX.formatHex(read.data()), c.name());
                assertArrayEquals(c.values(), read.longs(), c.name());
                double[] expected = !c.type().signed() && c.type().size() == 8
                        ? new double[] {0, 18446744073709551616.0, 9223372036854775808.0, 1}
                        : java.util.Arrays.stream(c.values()).asDoubleStream().toArray();
                assertArrayEquals(expected, read.doubles(), c.name());
            }
        }
    }

    /** A float32 and a float64 in both byte orders: type, bytes and values read back. */
    @Test
    void floatsInBothByteOrdersReadBackAsWritten() throws IOException {
        Path file = dir.resolve("floats.h5");
        Datatype.FloatType f32be = Datatype.FLOAT32.withByteOrder(ByteOrder.BIG_ENDIAN);
        Datatype.FloatType f64be = Datatype.FLOAT64.withByteOrder(ByteOrder.BIG_ENDIAN);
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().setAttribute(Attribute.scalar("f32le", Datatype.FLOAT32, 0.1));
            hdf5.root().setAttribute(Attribute.scalar("f32be", f32be, -2.5));
            hdf5.root().setAttribute(Attribute.scalar("f64be", f64be, 0.1));
            // A long given to a float type is stored as the float of that value.
            hdf5.root().setAttribute(Attribute.scalar("f64le", Datatype.FLOAT64, 3L));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Attribute f32le = hdf5.root().attribute("f32le");
            assertEquals(Datatype.FLOAT32, f32le.type());
            assertEquals("cdcccc3d", HEX.formatHex(f32le.data()));
            assertArrayEquals(new double[] {(double) 0.1f}, f32le.doubles());
            Attribute f32 = hdf5.root().attribute("f32be");
            assertEquals(f32be, f32.type());
            assertEquals("c0200000", HEX.formatHex(f32.data()));
            assertArrayEquals(new double[] {-2.5}, f32.doubles());
            Attribute f64 = hdf5.root().attribute("f64be");
            assertEquals(f64be, f64.type());
            assertEquals("3fb999999999999a", HEX.formatHex(f64.data()));
            assertArrayEquals(new double[] {0.1}, f64.doubles());
            Attribute three = hdf5.root().attribute("f64le");
            assertEquals("0000000000000840", HEX.formatHex(three.data()));
            assertArrayEquals(new double[] {3.0}, three.doubles());
        }
    }

    /**
     * Fixed-length strings of each padding, ASCII and UTF-8, and variable-length ones of
     * another padding and ASCII: the padding and character set come back (each padding has its
     * own code in the datatype message), the text is what was written, padding removed.
     */
    @Test
    void stringsKeepTheirPaddingAndCharacterSet() throws IOException {
        Path file = dir.resolve("strings.h5");
        Datatype.StringType terminated = new Datatype.StringType(4,
                Datatype.StringPadding.NULL_TERMINATED, false);
        Datatype.StringType padded = new Datatype.StringType(4,
                Datatype.StringPadding.NULL_PADDED, true);
        Datatype.StringType spaced = new Datatype.StringType(5,
                Datatype.StringPadding.SPACE_PADDED, false);
        Datatype.VariableLengthStringType vlenAscii = new Datatype.VariableLengthStringType(
                Datatype.StringPadding.SPACE_PADDED, false);
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Group root = hdf5.root();
            root.setAttribute(new Attribute("terminated", terminated, new long[] {2},
                    concat(terminated.encode("abc"), terminated.encode(""))));
            root.setAttribute(new Attribute("padded", padded, new long[0],
                    padded.encode("caf\u00e9".substring(2))));
            root.setAttribute(new Attribute("spaced", spaced, new long[0], spaced.encode("ab")));
            root.setAttribute(Attribute.ofStrings("vlen", vlenAscii, new long[0],
                    List.of("caf\u00e9".getBytes(StandardCharsets.UTF_8))));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group root = hdf5.root();
            Attribute t = root.attribute("terminated");
            assertEquals(terminated, t.type());
            assertEquals("6162630000000000", HEX.formatHex(t.data()));
            assertEquals(List.of("abc", ""), texts(t.stringBytes()));
            Attribute p = root.attribute("padded");
            assertEquals(padded, p.type());
            assertEquals("66c3a900", HEX.formatHex(p.data()));
            assertEquals("f\u00e9", p.string());
            Attribute s = root.attribute("spaced");
            assertEquals(spaced, s.type());
            assertEquals("6162202020", HEX.formatHex(s.data()));
            assertEquals("ab", s.string());
            Attribute v = root.attribute("vlen");
            assertEquals(vlenAscii, v.type());
            // ASCII: the two bytes of the UTF-8 e-acute are not ASCII, each reads as U+FFFD.
            assertEquals("caf\ufffd\ufffd", v.string());
        }
    }

    /**
     * An enumeration of a big-endian unsigned 16-bit base (member values decoded in the
     * base's order; a dataset of it read in that order), an array of big-endian shorts and a packed compound read back equal, with
     * their bytes.
     */
    @Test
    void enumerationsArraysAndCompoundsReadBackEqual() throws IOException {
        Path file = dir.resolve("composite.h5");
        Datatype.IntegerType u16be = Datatype.UINT16.withByteOrder(ByteOrder.BIG_ENDIAN);
        Datatype.EnumType levels = new Datatype.EnumType(u16be, List.of(
                new Datatype.EnumMember("LOW", 1), new Datatype.EnumMember("HIGH", 0xfffe)));
        Datatype.ArrayType grid = new Datatype.ArrayType(Datatype.INT16.withByteOrder(
                ByteOrder.BIG_ENDIAN), 2, 3);
        Datatype.CompoundType record = Datatype.CompoundType.packed(List.of("flag", "count"),
                List.of(Datatype.EnumType.BOOLEAN, Datatype.UINT32));
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Group root = hdf5.root();
            root.setAttribute(new Attribute("levels", levels, new long[] {2},
                    HEX.parseHex("fffe0001")));
            root.setAttribute(new Attribute("grid", grid, new long[0],
                    HEX.parseHex("0001000200030004fffffffe")));
            root.setAttribute(new Attribute("record", record, new long[0],
                    HEX.parseHex("0107000000")));
            root.createDataset("levels", levels, new long[] {2}, HEX.parseHex("fffe0001"));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group root = hdf5.root();
            Attribute l = root.attribute("levels");
            assertEquals(levels, l.type());
            assertArrayEquals(new long[] {0xfffe, 1}, l.longs());
            Datatype.EnumType type = (Datatype.EnumType) l.type();
            assertEquals("HIGH", type.nameOf(l.longs()[0]));
            assertEquals("LOW", type.nameOf(1));
            assertNull(type.nameOf(0));
            Attribute g = root.attribute("grid");
            assertEquals(grid, g.type());
            assertEquals(12, g.type().size());
            assertEquals("0001000200030004fffffffe", HEX.formatHex(g.data()));
            Attribute r = root.attribute("record");
            assertEquals(record, r.type());
            assertEquals("0107000000", HEX.formatHex(r.data()));
            // Read as shorts, an enumeration's elements are converted from its base's order.
            assertArrayEquals(new short[] {(short) 0xfffe, 1}, root.dataset("levels")
                    .readShorts(new long[] {0}, new long[] {2}));
        }
    }

    private static List<String> texts(List<byte[]> strings) {
        List<String> out = new ArrayList<>();
        for (byte[] string : strings) {
            out.add(new String(string, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
