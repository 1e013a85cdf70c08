package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.hdf5.Datatype;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * How elements and types are printed: integers exactly, floats as Python's {@code repr}
 * (checked against Python itself), strings quoted and escaped, compounds by member.
 */
class H5ValueFormatTest {

    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "0.1; 0.1", "0.30000000000000004; 0.30000000000000004", "123.0; 123.0", "1e15; 1000000000000000.0",
        "1e16; 1e+16", "1.5e-5; 1.5e-05", "0.0001; 0.0001", "2e23; 2e+23", "-2.5; -2.5",
        "2.82879384806159E17; 2.82879384806159e+17", "4.9e-324; 5e-324",
        "1.7976931348623157e308; 1.7976931348623157e+308", "-0.0; -0.0", "0; 0.0", "NaN; nan",
        "Infinity; inf", "-Infinity; -inf"})
    void doublesAreShortestAsPythonPrintsThem(double value, String text) {
        assertEquals(text, ShortestFloat.format(value));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"0.1; 0.1", "16777216; 16777216.0", "1.4e-45; 1e-45",
        "3.4028235e38; 3.4028235e+38", "0.3; 0.3", "1e-5; 1e-05"})
    void floatsAreShortestForFloat32(float value, String text) {
        assertEquals(text, ShortestFloat.format(value));
    }

    /** 3,000 random doubles and floats of every magnitude, against Python and numpy. */
    @Test
    void randomNumbersPrintAsPythonPrintsThem() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-numpy (apt-get install python3-h5py)",
                "-c", "import numpy");
        SplittableRandom random = new SplittableRandom(42);
        List<String> bits = new ArrayList<>();
        List<String> ours = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            double value = Double.longBitsToDouble(random.nextLong());
            bits.add("d " + Long.toHexString(Double.doubleToRawLongBits(value)));
            ours.add(ShortestFloat.format(value));
        }
        for (int i = 0; i < 1000; i++) {
            float value = Float.intBitsToFloat(random.nextInt());
            bits.add("f " + Integer.toHexString(Float.floatToRawIntBits(value)));
            ours.add(ShortestFloat.format(value));
        }
        Path input = Files.write(dir.resolve("bits.txt"), bits);
        String script = String.join("\n",
                "import struct, sys, numpy",
                "for line in open(sys.argv[1]):",
                "    kind, hexbits = line.split()",
                "    if kind == 'd':",
                "        print(repr(struct.unpack('<d', int(hexbits, 16).to_bytes(8, 'little'))[0]))",
                "    else:",
                "        print(str(numpy.frombuffer(int(hexbits, 16).to_bytes(4, 'little'), '<f4')[0]))");
        QuireCommand.Result python = QuireCommand.runProcess(new ProcessBuilder(PYTHON.toString(), "-c",
                script, input.toString()), Duration.ofSeconds(60));
        assertEquals(0, python.exitCode(), python.toString());
        List<String> expected = python.stdoutLines();
        assertEquals(ours.size(), expected.size());
        for (int i = 0; i < ours.size(); i++) {
            assertEquals(expected.get(i), ours.get(i), bits.get(i));
        }
    }

    private static byte[] bytes(ByteOrder order, int size, long value) {
        ByteBuffer out = ByteBuffer.allocate(8).order(order);
        switch (size) {
            case 1 -> out.put((byte) value);
            case 2 -> out.putShort((short) value);
            case 4 -> out.putInt((int) value);
            default -> out.putLong(value);
        }
        return java.util.Arrays.copyOf(out.array(), size);
    }

    @Test
    void integersAreExactInEitherByteOrderAndSignedness() {
        assertEquals("-128", ValueFormat.format(Datatype.INT8, bytes(ByteOrder.LITTLE_ENDIAN, 1, -128), 0));
        assertEquals("255", ValueFormat.format(Datatype.UINT8, bytes(ByteOrder.LITTLE_ENDIAN, 1, -1), 0));
        assertEquals("-2", ValueFormat.format(Datatype.INT16.withByteOrder(ByteOrder.BIG_ENDIAN),
                bytes(ByteOrder.BIG_ENDIAN, 2, -2), 0));
        assertEquals("4294967295", ValueFormat.format(Datatype.UINT32, bytes(ByteOrder.LITTLE_ENDIAN, 4, -1), 0));
        assertEquals("18446744073709551615", ValueFormat.format(Datatype.UINT64,
                bytes(ByteOrder.LITTLE_ENDIAN, 8, -1), 0));
        assertEquals("-9223372036854775808", ValueFormat.format(Datatype.INT64.withByteOrder(ByteOrder.BIG_ENDIAN),
                bytes(ByteOrder.BIG_ENDIAN, 8, Long.MIN_VALUE), 0));
        byte[] two = new byte[12];
        System.arraycopy(bytes(ByteOrder.LITTLE_ENDIAN, 4, 77), 0, two, 8, 4);
        assertEquals("77", ValueFormat.format(Datatype.INT32, two, 8));
    }

    @Test
    void stringsAreQuotedWithEscapesAndPaddingRemoved() {
        Datatype.StringType spaced = new Datatype.StringType(8, Datatype.StringPadding.SPACE_PADDED, false);
        assertEquals("\"ab\"", ValueFormat.format(spaced, "ab      ".getBytes(StandardCharsets.US_ASCII), 0));
        Datatype.StringType utf8 = new Datatype.StringType(12, Datatype.StringPadding.NULL_PADDED, true);
        assertEquals("\"h\u00e9 \\\"q\\\" \\\\\"", ValueFormat.format(utf8, utf8.encode("h\u00e9 \"q\" \\"), 0));
        Datatype.StringType ascii = Datatype.StringType.ascii(6);
        assertEquals("\"a\\nb\\tc\\x01\"", ValueFormat.format(ascii, ascii.encode("a\nb\tc\u0001"), 0));
        assertEquals("\"\"", ValueFormat.format(ascii, new byte[6], 0));
    }

    @Test
    void bytesThatAreNotTextAreEscapedAndEmbeddedNulsKept() {
        Datatype.StringType ascii = Datatype.StringType.ascii(6);
        // Trailing NULs are padding; an embedded NUL and what follows it are kept.
        assertEquals("\"a\\x00b\\xff\"", ValueFormat.format(ascii,
                new byte[] {'a', 0, 'b', (byte) 0xff, 0, 0}, 0));
        assertEquals("\"caf\\xe9\"", ValueFormat.string(new byte[] {'c', 'a', 'f', (byte) 0xe9},
                false));
        assertEquals("\"caf\u00e9\"", ValueFormat.string("caf\u00e9".getBytes(StandardCharsets.UTF_8),
                true));
        // Malformed UTF-8: a lone continuation byte, a truncated sequence, an overlong NUL.
        assertEquals("\"\\x80a\\xe2\\x82\\xc0\\x80\"", ValueFormat.string(new byte[] {
            (byte) 0x80, 'a', (byte) 0xe2, (byte) 0x82, (byte) 0xc0, (byte) 0x80}, true));
        assertEquals("\"\ud83d\ude00\"", ValueFormat.string("\ud83d\ude00".getBytes(StandardCharsets.UTF_8),
                true));
    }

    @Test
    void enumerationsPrintMemberNamesAndIntegersOfAnySizeAreExact() {
        assertEquals("TRUE", ValueFormat.format(Datatype.EnumType.BOOLEAN, new byte[] {1}, 0));
        assertEquals("FALSE", ValueFormat.format(Datatype.EnumType.BOOLEAN, new byte[] {0}, 0));
        assertEquals("5", ValueFormat.format(Datatype.EnumType.BOOLEAN, new byte[] {5}, 0));
        Datatype.IntegerType int24 = new Datatype.IntegerType(3, true, ByteOrder.BIG_ENDIAN);
        assertEquals("-2", ValueFormat.format(int24, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xfe}, 0));
        Datatype.IntegerType uint56 = new Datatype.IntegerType(7, false, ByteOrder.LITTLE_ENDIAN);
        assertEquals("72057594037927935", ValueFormat.format(uint56, new byte[] {-1, -1, -1, -1, -1, -1, -1}, 0));
        assertEquals("enum int8 {FALSE=0, TRUE=1}", TypeDescription.of(Datatype.EnumType.BOOLEAN));
        assertEquals("int24 BE", TypeDescription.of(int24));
        assertEquals("string[variable] nullterm utf8",
                TypeDescription.of(Datatype.VariableLengthStringType.UTF8));
    }

    @Test
    void compoundsPrintEveryMemberByNameNestedIncluded() {
        Datatype.CompoundType inner = Datatype.CompoundType.packed(List.of("re", "im"),
                List.of(Datatype.FLOAT32, Datatype.FLOAT32.withByteOrder(ByteOrder.BIG_ENDIAN)));
        Datatype.CompoundType outer = Datatype.CompoundType.packed(List.of("id", "z", "tag"),
                List.of(Datatype.UINT16, inner, Datatype.StringType.ascii(3)));
        ByteBuffer element = ByteBuffer.allocate(outer.size());
        element.order(ByteOrder.LITTLE_ENDIAN).putShort((short) 65535).putFloat(0.5f);
        element.order(ByteOrder.BIG_ENDIAN).putFloat(-3f);
        element.put("ok".getBytes(StandardCharsets.US_ASCII));
        assertEquals("{id=65535, z={re=0.5, im=-3.0}, tag=\"ok\"}",
                ValueFormat.format(outer, element.array(), 0));
        assertEquals("compound[13] {id: uint16 LE @0, z: compound[8] {re: float32 LE @0, im: float32 BE @4} @2,"
                + " tag: string[3] nullpad ascii @10}", TypeDescription.of(outer));
    }

    @Test
    void typesAreDescribedInOneShortLine() {
        assertEquals("int8", TypeDescription.of(Datatype.INT8));
        assertEquals("uint64 LE", TypeDescription.of(Datatype.UINT64));
        assertEquals("int32 BE", TypeDescription.of(Datatype.INT32.withByteOrder(ByteOrder.BIG_ENDIAN)));
        assertEquals("float32 LE", TypeDescription.of(Datatype.FLOAT32));
        assertEquals("float64 BE", TypeDescription.of(Datatype.FLOAT64.withByteOrder(ByteOrder.BIG_ENDIAN)));
        assertEquals("string[16] nullterm ascii", TypeDescription.of(new Datatype.StringType(16,
                Datatype.StringPadding.NULL_TERMINATED, false)));
        assertEquals("string[4] spacepad utf8", TypeDescription.of(new Datatype.StringType(4,
                Datatype.StringPadding.SPACE_PADDED, true)));
    }

    @Test
    void namesPrintBytesThatAreNotUtf8AndControlCharactersEscaped() {
        // The format library gives a stored byte that is not valid UTF-8 as U+DC00 + byte.
        assertEquals("/g/x\\xff", ValueFormat.name("/g/x\udcff"));
        assertEquals("/g/x\\xfe", ValueFormat.name("/g/x\udcfe"));
        assertEquals("a\\nb\\tc \\\\ \"caf\u00e9\"", ValueFormat.name("a\nb\tc \\ \"caf\u00e9\""));
    }

    @Test
    void longValuesAreCutBetweenEscapesAndCharactersNeverInside() {
        assertEquals("ab", ListCommand.cut("ab\\xff", 5));
        assertEquals("ab\\xff", ListCommand.cut("ab\\xffcd", 6));
        assertEquals("a", ListCommand.cut("a\\nb", 2));
        assertEquals("a", ListCommand.cut("a\ud83d\ude00b", 2));
        assertEquals("a\ud83d\ude00", ListCommand.cut("a\ud83d\ude00b", 3));
    }
}
