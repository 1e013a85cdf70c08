package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Datatype messages (specification IV.A.2.d) field by field: what Quire writes read back for
 * every class, the older compound, enumeration and array versions libhdf5 1.8/1.10 write with
 * their padding, and each refusal at its offset.
 */
class DatatypeMessageTest {

    private static final long AT = 500;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final DatatypeDescription.FixedPoint INT16 =
            new DatatypeDescription.FixedPoint(2, true, LE);

    private static LittleEndianReader at(byte[] message) {
        return new LittleEndianReader(Path.of("types.h5"), AT, "datatype message", message);
    }

    private static DatatypeDescription decode(byte[] message) throws Exception {
        LittleEndianReader in = at(message);
        DatatypeDescription type = DatatypeMessage.decode(in);
        assertEquals(0, in.remaining(), "the whole message is read");
        return type;
    }

    private static DatatypeDescription roundTrip(DatatypeDescription type) throws Exception {
        DatatypeDescription read = decode(DatatypeMessage.encode(type));
        if (!(type instanceof DatatypeDescription.Enumeration)) {
            assertEquals(type, read);
        }
        return read;
    }

    /** Class and version byte, three bit-field bytes and the size: the 8 bytes every class has. */
    private static LittleEndianWriter start(int typeClass, int version, int bits0, int bits1, int size) {
        return new LittleEndianWriter().putByte(typeClass | version << 4).putByte(bits0)
                .putByte(bits1).putByte(0).putInt(size);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyAtomicClassQuireWritesReadsBack() throws Exception {
        for (int size = 1; size <= 8; size++) {
            roundTrip(new DatatypeDescription.FixedPoint(size, true, LE));
            roundTrip(new DatatypeDescription.FixedPoint(size, false, BE));
        }
        roundTrip(new DatatypeDescription.FloatingPoint(4, LE));
        roundTrip(new DatatypeDescription.FloatingPoint(8, BE));
        roundTrip(new DatatypeDescription.FixedString(7, 2, true));
        roundTrip(new DatatypeDescription.FixedString(1, 0, false));
        roundTrip(new DatatypeDescription.VariableLengthString(1, true));
        roundTrip(new DatatypeDescription.VariableLengthString(0, false));
        roundTrip(new DatatypeDescription.VariableLengthString(2, true));
        // A big-endian signed 32-bit integer: class 0 version 1, bit field 0x09, 32 bits at 0.
        assertEquals("1009000004000000" + "00002000",
                HexFormat.of().formatHex(DatatypeMessage.encode(
                        new DatatypeDescription.FixedPoint(4, true, BE))));
        // A UTF-8 space-padded string: bit field 0x12.
        assertEquals("1312000005000000", HexFormat.of().formatHex(
                DatatypeMessage.encode(new DatatypeDescription.FixedString(5, 2, true))));
        // A UTF-8 variable-length string padded with spaces: type 1, padding 2, charset 1, base u8.
        assertEquals("19210100100000001000000001000000" + "00000800", HexFormat.of().formatHex(
                DatatypeMessage.encode(new DatatypeDescription.VariableLengthString(2, true))));
    }

    @Test
    void compoundsEnumerationsAndArraysOfMoreThan255MembersOrBytesReadBack() throws Exception {
        List<DatatypeDescription.Member> members = new ArrayList<>();
        List<DatatypeDescription.EnumMember> values = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            members.add(new DatatypeDescription.Member("m" + i, 2 * i, INT16));
            values.add(new DatatypeDescription.EnumMember("v" + i, new byte[] {(byte) i, (byte) (i >> 8)}));
        }
        // 600 bytes: member offsets need 2 bytes; 300 members need the second count byte.
        roundTrip(new DatatypeDescription.Compound(600, members));
        roundTrip(new DatatypeDescription.Compound(200, List.of(
                new DatatypeDescription.Member("\u00e9t\u00e9", 0, INT16),
                new DatatypeDescription.Member("s", 2, new DatatypeDescription.FixedString(198, 1, false)))));
        DatatypeDescription.Enumeration read = (DatatypeDescription.Enumeration) roundTrip(
                new DatatypeDescription.Enumeration(INT16, values));
        assertEquals(INT16, read.base());
        assertEquals(300, read.members().size());
        for (int i = 0; i < 300; i++) {
            assertEquals("v" + i, read.members().get(i).name());
            assertArrayEquals(values.get(i).value(), read.members().get(i).value());
        }
        roundTrip(new DatatypeDescription.Array(INT16, List.of(3L, 5L)));
        roundTrip(new DatatypeDescription.Array(
                new DatatypeDescription.FloatingPoint(8, LE), List.of(1L)));
    }

    @Test
    void version1And2CompoundsPadNamesToEightBytes() throws Exception {
        byte[] int16 = DatatypeMessage.encode(INT16);
        // Version 1: name with NUL padded to 8, offset (4), dimensionality (1), 27 more bytes.
        byte[] v1 = start(6, 1, 2, 0, 4).putBytes(bytes("abcdefg\0")).putInt(0).putByte(0)
                .putZeros(27).putBytes(int16)
                .putBytes(bytes("b\0\0\0\0\0\0\0")).putInt(2).putByte(0).putZeros(27)
                .putBytes(int16).toByteArray();
        assertEquals(new DatatypeDescription.Compound(4, List.of(
                new DatatypeDescription.Member("abcdefg", 0, INT16),
                new DatatypeDescription.Member("b", 2, INT16))), decode(v1));
        // Version 2: the same without the dimension fields.
        byte[] v2 = start(6, 2, 1, 0, 8).putBytes(bytes("abcdefgh\0\0\0\0\0\0\0\0")).putInt(6)
                .putBytes(int16).toByteArray();
        assertEquals(new DatatypeDescription.Compound(8, List.of(
                new DatatypeDescription.Member("abcdefgh", 6, INT16))), decode(v2));
    }

    @Test
    void aVersion1CompoundMemberWithDimensionsIsUnsupportedAtThatField() {
        byte[] v1 = start(6, 1, 1, 0, 4).putBytes(bytes("ab\0\0\0\0\0\0")).putInt(0).putByte(2)
                .putZeros(27).putBytes(DatatypeMessage.encode(INT16)).toByteArray();
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> decode(v1));
        assertEquals(AT + 8 + 8 + 4, e.offset());
        assertEquals("array member \"ab\" (2 dimensions) of a version-1 compound", e.found());
    }

    @Test
    void aVariableLengthStringInACompoundOrArrayIsUnsupportedAtItsType() {
        byte[] vlen = DatatypeMessage.encode(new DatatypeDescription.VariableLengthString(0, false));
        byte[] compound = start(6, 3, 1, 0, 16).putBytes(bytes("s\0")).putByte(0).putBytes(vlen)
                .toByteArray();
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> decode(compound));
        assertEquals(AT + 8 + 3, e.offset());
        assertEquals("variable-length string member \"s\" of a compound", e.found());
        byte[] array = start(10, 3, 0, 0, 32).putByte(1).putInt(2).putBytes(vlen).toByteArray();
        e = assertThrows(UnsupportedFormatException.class, () -> decode(array));
        assertEquals(AT + 13, e.offset());
        assertEquals("array of variable-length strings", e.found());
    }

    @Test
    void version1And2EnumerationsPadNamesToEightBytes() throws Exception {
        byte[] v2 = start(8, 2, 2, 0, 2).putBytes(DatatypeMessage.encode(INT16))
                .putBytes(bytes("RED\0\0\0\0\0")).putBytes(bytes("GREENISH\0\0\0\0\0\0\0\0"))
                .putShort(7).putShort(-1).toByteArray();
        DatatypeDescription.Enumeration read = (DatatypeDescription.Enumeration) decode(v2);
        assertEquals("RED", read.members().get(0).name());
        assertArrayEquals(new byte[] {7, 0}, read.members().get(0).value());
        assertEquals("GREENISH", read.members().get(1).name());
        assertArrayEquals(new byte[] {-1, -1}, read.members().get(1).value());
    }

    @Test
    void anEnumerationOverAnythingButAnIntegerOfItsSizeIsCorrupt() {
        byte[] overFloat = start(8, 3, 0, 0, 8)
                .putBytes(DatatypeMessage.encode(new DatatypeDescription.FloatingPoint(8, LE)))
                .toByteArray();
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> decode(overFloat));
        assertEquals(AT, e.offset());
        assertEquals("a base integer type of 8 bytes", e.expected());
        assertEquals("8-byte floating point", e.found());
        byte[] overWider = start(8, 3, 0, 0, 1).putBytes(DatatypeMessage.encode(INT16)).toByteArray();
        e = assertThrows(CorruptFileException.class, () -> decode(overWider));
        assertEquals("a base integer type of 1 bytes", e.expected());
        assertEquals("2-byte signed integer", e.found());
    }

    @Test
    void anEnumerationOverAnotherClassNamesThatClass() {
        String[] expected = {"3-byte string", "2-byte compound", "2-byte enumeration",
            "array [2] of 2-byte signed integer", "variable-length string", "1-byte unsigned integer"};
        DatatypeDescription[] bases = {new DatatypeDescription.FixedString(3, 0, false),
            new DatatypeDescription.Compound(2, List.of(new DatatypeDescription.Member("a", 0, INT16))),
            new DatatypeDescription.Enumeration(INT16, List.of(
                    new DatatypeDescription.EnumMember("x", new byte[2]))),
            new DatatypeDescription.Array(INT16, List.of(2L)),
            new DatatypeDescription.VariableLengthString(0, false),
            new DatatypeDescription.FixedPoint(1, false, LE)};
        for (int i = 0; i < bases.length; i++) {
            byte[] message = start(8, 3, 0, 0, 5).putBytes(DatatypeMessage.encode(bases[i]))
                    .toByteArray();
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> decode(message));
            assertEquals(expected[i], e.found());
        }
    }

    @Test
    void version2ArraysSkipPaddingAndPermutation() throws Exception {
        byte[] v2 = start(10, 2, 0, 0, 12).putByte(2).putZeros(3).putInt(2).putInt(3)
                .putInt(0).putInt(1).putBytes(DatatypeMessage.encode(INT16)).toByteArray();
        assertEquals(new DatatypeDescription.Array(INT16, List.of(2L, 3L)), decode(v2));
    }

    @Test
    void arraysAreRefusedAtTheFieldThatIsWrong() throws Exception {
        byte[] int16 = DatatypeMessage.encode(INT16);
        UnsupportedFormatException version = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(10, 1, 0, 0, 2).putByte(1).putInt(1).putBytes(int16).toByteArray()));
        assertEquals(AT, version.offset());
        assertEquals("array datatype version 1 (2 and 3 read)", version.found());
        for (int rank : new int[] {0, 33}) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> decode(start(10, 3, 0, 0, 2).putByte(rank).toByteArray()));
            assertEquals(AT + 8, e.offset());
            assertEquals("array dimensionality", e.field());
            assertEquals("1..32", e.expected());
            assertEquals(Integer.toString(rank), e.found());
        }
        // Rank 32, every dimension 1: the largest rank is read.
        LittleEndianWriter rank32 = start(10, 3, 0, 0, 2).putByte(32);
        for (int d = 0; d < 32; d++) {
            rank32.putInt(1);
        }
        assertEquals(32, ((DatatypeDescription.Array) decode(
                rank32.putBytes(int16).toByteArray())).dimensions().size());
        CorruptFileException zero = assertThrows(CorruptFileException.class,
                () -> decode(start(10, 3, 0, 0, 2).putByte(2).putInt(1).putInt(0).putBytes(int16)
                        .toByteArray()));
        assertEquals(AT + 13, zero.offset());
        assertEquals("array dimension size", zero.field());
        CorruptFileException size = assertThrows(CorruptFileException.class,
                () -> decode(start(10, 3, 0, 0, 10).putByte(2).putInt(2).putInt(3).putBytes(int16)
                        .toByteArray()));
        assertEquals(AT + 4, size.offset());
        assertEquals("array size", size.field());
        assertEquals("the base's 2 bytes times the dimensions [2, 3]", size.expected());
        assertEquals("10 bytes", size.found());
        // 2^31 elements of 2 bytes: the product is not computed past 2^31 - 1, and refused.
        CorruptFileException huge = assertThrows(CorruptFileException.class,
                () -> decode(start(10, 3, 0, 0, 0).putByte(2).putInt(1 << 16).putInt(1 << 15)
                        .putBytes(int16).toByteArray()));
        assertEquals("array size", huge.field());
    }

    @Test
    void integersOnlyWithAllBitsSignificantAndOneToEightBytes() {
        UnsupportedFormatException offset = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(0, 1, 0, 0, 4).putShort(1).putShort(32).toByteArray()));
        assertEquals(AT, offset.offset());
        assertEquals("integer with bit offset 1 and precision 32 in 4 bytes", offset.found());
        assertThrows(UnsupportedFormatException.class,
                () -> decode(start(0, 1, 0, 0, 4).putShort(0).putShort(31).toByteArray()));
        UnsupportedFormatException wide = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(0, 1, 0, 0, 9).putShort(0).putShort(72).toByteArray()));
        assertEquals("9-byte integer (1 to 8 bytes are read)", wide.found());
        UnsupportedFormatException empty = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(0, 1, 0, 0, 0).putShort(0).putShort(0).toByteArray()));
        assertEquals("0-byte integer (1 to 8 bytes are read)", empty.found());
    }

    @Test
    void floatsOnlyAsIeeeBinary32And64() {
        UnsupportedFormatException half = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(1, 1, 0x20, 15, 2).toByteArray()));
        assertEquals("2-byte floating point", half.found());
        // binary32 with the mantissa's leading one not implied (bits 4-5 = 0).
        byte[] ieee = DatatypeMessage.encode(new DatatypeDescription.FloatingPoint(4, LE));
        ieee[1] = 0;
        UnsupportedFormatException explicit = assertThrows(UnsupportedFormatException.class,
                () -> decode(ieee));
        assertEquals(AT, explicit.offset());
        byte[] shifted = DatatypeMessage.encode(new DatatypeDescription.FloatingPoint(8, LE));
        shifted[14] = 1; // mantissa location
        assertThrows(UnsupportedFormatException.class, () -> decode(shifted));
        byte[] precision = DatatypeMessage.encode(new DatatypeDescription.FloatingPoint(8, LE));
        precision[10] = 63;
        assertThrows(UnsupportedFormatException.class, () -> decode(precision));
        byte[] bitOffset = DatatypeMessage.encode(new DatatypeDescription.FloatingPoint(8, LE));
        bitOffset[8] = 1;
        assertThrows(UnsupportedFormatException.class, () -> decode(bitOffset));
    }

    @Test
    void stringPaddingAbove2IsCorruptAtTheBitField() throws Exception {
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> decode(start(3, 1, 3, 0, 4).toByteArray()));
        assertEquals(AT + 1, e.offset());
        assertEquals("string padding", e.field());
        assertEquals("3", e.found());
        assertEquals(new DatatypeDescription.FixedString(4, 2, false),
                decode(start(3, 1, 2, 0, 4).toByteArray()));
    }

    @Test
    void variableLengthTypesOtherThanStringsAreRefused() {
        byte[] int16 = DatatypeMessage.encode(INT16);
        UnsupportedFormatException sequence = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(9, 1, 0, 0, 16).putBytes(int16).toByteArray()));
        assertEquals(AT, sequence.offset());
        assertEquals("variable-length sequence of 2-byte signed integer", sequence.found());
        byte[] u8 = DatatypeMessage.encode(new DatatypeDescription.FixedPoint(1, false, LE));
        CorruptFileException padding = assertThrows(CorruptFileException.class,
                () -> decode(start(9, 1, 1 | 3 << 4, 0, 16).putBytes(u8).toByteArray()));
        assertEquals("padding 3, size 16", padding.found());
        CorruptFileException size = assertThrows(CorruptFileException.class,
                () -> decode(start(9, 1, 1, 0, 8).putBytes(u8).toByteArray()));
        assertEquals(AT, size.offset());
        assertEquals("padding 0..2 and size 16", size.expected());
        assertEquals("padding 0, size 8", size.found());
    }

    @Test
    void otherClassesAreUnsupportedByName() {
        UnsupportedFormatException opaque = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(5, 1, 0, 0, 4).toByteArray()));
        assertEquals("opaque datatype (class 5)", opaque.found());
        UnsupportedFormatException unknown = assertThrows(UnsupportedFormatException.class,
                () -> decode(start(11, 1, 0, 0, 4).toByteArray()));
        assertEquals("unknown datatype (class 11)", unknown.found());
    }
}
