package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Attribute messages (specification IV.A.2.m) of versions 1 to 3 built field by field: the
 * version 3 Quire writes read back, the padding of version 1, shared datatypes resolved through
 * the file, and the value's size checked against the shape.
 */
class AttributeMessageTest {

    private static final Path FILE = Path.of("attributes.h5");
    private static final long MESSAGE = 1000;
    private static final DatatypeDescription INT32 =
            new DatatypeDescription.FixedPoint(4, true, ByteOrder.LITTLE_ENDIAN);
    private static final DatatypeDescription COMMITTED =
            new DatatypeDescription.FloatingPoint(8, ByteOrder.LITTLE_ENDIAN);

    /** Committed datatypes as a file resolves them; records the addresses asked for. */
    private final List<Long> committedLookups = new ArrayList<>();
    private final StoredReferences references = new StoredReferences() {
        @Override
        public DatatypeDescription committedDatatype(long address) {
            committedLookups.add(address);
            return COMMITTED;
        }

        @Override
        public byte[] globalHeapObject(GlobalHeapId id) {
            throw new AssertionError("no variable-length data here");
        }
    };

    private static LittleEndianReader at(byte[] message) {
        return new LittleEndianReader(FILE, MESSAGE, "attribute message", message);
    }

    private static byte[] data(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i + 1);
        }
        return data;
    }

    /** A version-3 message with the given flags, datatype and dataspace bodies and data. */
    private static byte[] version3(int flags, String name, byte[] datatype, byte[] dataspace,
                                   byte[] data) {
        byte[] encodedName = LosslessUtf8.encode(name);
        return new LittleEndianWriter().putByte(3).putByte(flags).putShort(encodedName.length + 1)
                .putShort(datatype.length).putShort(dataspace.length).putByte(0)
                .putBytes(encodedName).putByte(0).putBytes(datatype).putBytes(dataspace)
                .putBytes(data).toByteArray();
    }

    @Test
    void quiresVersion3MessageReadsBackWithTheValueAtItsAddress() throws IOException {
        byte[] message = AttributeMessage.encode(new AttributeMessage.Content("temp", INT32,
                new long[] {2, 3}, data(24), Addresses.UNDEFINED));
        byte[] datatype = DatatypeMessage.encode(INT32);
        byte[] dataspace = new DataspaceMessage(new long[] {2, 3}, null).encode();
        // version, flags, name size (with NUL), datatype size, dataspace size, charset ASCII
        assertArrayEquals(new LittleEndianWriter().putByte(3).putByte(0).putShort(5)
                .putShort(datatype.length).putShort(dataspace.length).putByte(0).toByteArray(),
                java.util.Arrays.copyOf(message, 9));
        int dataAt = 9 + 5 + datatype.length + dataspace.length;
        assertEquals(dataAt + 24, message.length);

        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertEquals("temp", read.name());
        assertEquals(INT32, read.type());
        assertArrayEquals(new long[] {2, 3}, read.shape());
        assertArrayEquals(data(24), read.data());
        assertEquals(MESSAGE + dataAt, read.dataAddress());
        assertEquals("temp", AttributeMessage.name(at(message)));
        assertTrue(committedLookups.isEmpty());
    }

    @Test
    void aNameThatIsNotAsciiIsMarkedUtf8() throws IOException {
        byte[] message = AttributeMessage.encode(new AttributeMessage.Content("t\u00e9", INT32,
                new long[0], data(4), Addresses.UNDEFINED));
        assertEquals(4, message[2], "name size: 3 bytes and the NUL");
        assertEquals(1, message[8], "character set");
        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertEquals("t\u00e9", read.name());
        assertEquals(0, read.shape().length);
        assertArrayEquals(data(4), read.data());
    }

    @Test
    void version1PadsNameDatatypeAndDataspaceToEightBytesAndHasNoFlags() throws IOException {
        byte[] datatype = DatatypeMessage.encode(INT32);
        byte[] dataspace = new DataspaceMessage(new long[] {3}, null).encode();
        int datatypePadded = (datatype.length + 7) / 8 * 8;
        int dataspacePadded = (dataspace.length + 7) / 8 * 8;
        // The second byte is reserved in version 1: a 1 there must not make the datatype shared.
        byte[] message = new LittleEndianWriter().putByte(1).putByte(1).putShort(6)
                .putShort(datatype.length).putShort(dataspace.length)
                .putBytes("speed\0\0\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .putBytes(datatype).putZeros(datatypePadded - datatype.length)
                .putBytes(dataspace).putZeros(dataspacePadded - dataspace.length)
                .putBytes(data(12)).toByteArray();
        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertEquals("speed", read.name());
        assertEquals(INT32, read.type());
        assertArrayEquals(new long[] {3}, read.shape());
        assertArrayEquals(data(12), read.data());
        assertEquals(MESSAGE + 8 + 8 + datatypePadded + dataspacePadded, read.dataAddress());
        assertTrue(committedLookups.isEmpty());
    }

    @Test
    void version2HasFlagsButNoPaddingAndNoCharset() throws IOException {
        byte[] datatype = DatatypeMessage.encode(INT32);
        byte[] dataspace = new DataspaceMessage(new long[] {1}, null).encode();
        byte[] message = new LittleEndianWriter().putByte(2).putByte(0).putShort(2)
                .putShort(datatype.length).putShort(dataspace.length).putBytes(new byte[] {'x', 0})
                .putBytes(datatype).putBytes(dataspace).putBytes(data(4)).toByteArray();
        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertEquals("x", read.name());
        assertArrayEquals(data(4), read.data());
        assertEquals(MESSAGE + 8 + 2 + datatype.length + dataspace.length, read.dataAddress());
    }

    @Test
    void aSharedDatatypeIsTheCommittedOneAtTheAddressItNames() throws IOException {
        // Shared message version 2: version, type, object header address.
        byte[] shared = new LittleEndianWriter().putByte(2).putByte(0).putAddress(4096).toByteArray();
        byte[] dataspace = new DataspaceMessage(new long[] {2}, null).encode();
        byte[] message = version3(1, "ref", shared, dataspace, data(16));
        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertEquals(COMMITTED, read.type());
        assertEquals(List.of(4096L), committedLookups);
        assertArrayEquals(data(16), read.data());
    }

    @Test
    void aSharedDataspaceIsUnsupportedNamingTheAttribute() {
        byte[] dataspace = new DataspaceMessage(new long[] {2}, null).encode();
        byte[] datatype = DatatypeMessage.encode(INT32);
        byte[] message = version3(2, "grid", datatype, dataspace, data(8));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> AttributeMessage.decode(at(message), references));
        assertEquals("a shared dataspace message", e.found());
        assertEquals(MESSAGE + 9 + 5 + datatype.length, e.offset());
        assertTrue(e.getMessage().contains("attribute \"grid\" (message at offset 1000)"),
                e.getMessage());
    }

    @Test
    void versionsOutside1To3AreUnsupportedAtTheMessage() {
        for (int version : new int[] {0, 4}) {
            byte[] message = new byte[16];
            message[0] = (byte) version;
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> AttributeMessage.decode(at(message), references));
            assertEquals(MESSAGE, e.offset());
            assertEquals("version " + version, e.found());
            assertEquals("versions 1 to 3", e.supported());
            assertThrows(UnsupportedFormatException.class, () -> AttributeMessage.name(at(message)));
        }
    }

    @Test
    void aValueShorterThanItsShapeIsCorruptAtTheData() {
        byte[] datatype = DatatypeMessage.encode(INT32);
        byte[] dataspace = new DataspaceMessage(new long[] {2, 3}, null).encode();
        byte[] message = version3(0, "temp", datatype, dataspace, data(23));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> AttributeMessage.decode(at(message), references));
        int dataAt = 9 + 5 + datatype.length + dataspace.length;
        assertEquals(MESSAGE + dataAt, e.offset());
        assertEquals("data", e.field());
        assertEquals("elements inside the message", e.expected());
        assertEquals("shape needing more than 23 bytes", e.found());
    }

    @Test
    void aShapeWhoseElementCountOverflowsIsCorrupt() {
        byte[] datatype = DatatypeMessage.encode(INT32);
        // 2^62 elements of 4 bytes wrap to 0 bytes; twice as many are a negative count.
        byte[] dataspace = new DataspaceMessage(new long[] {1L << 62, 2}, null).encode();
        byte[] message = version3(0, "temp", datatype, dataspace, data(8));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> AttributeMessage.decode(at(message), references));
        assertEquals("data", e.field());
        assertEquals("shape needing more than 8 bytes", e.found());
    }

    @Test
    void anEmptyDimensionHoldsNoValue() throws IOException {
        byte[] message = AttributeMessage.encode(new AttributeMessage.Content("none", INT32,
                new long[] {0}, new byte[0], Addresses.UNDEFINED));
        AttributeMessage.Content read = AttributeMessage.decode(at(message), references);
        assertArrayEquals(new long[] {0}, read.shape());
        assertEquals(0, read.data().length);
    }
}
