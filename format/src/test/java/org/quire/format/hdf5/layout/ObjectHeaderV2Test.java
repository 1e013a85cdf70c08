package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Version-2 object headers (specification IV.A.1.b) built field by field: the width of the
 * chunk 0 size field at each limit, the optional fields the flags announce, creation order
 * fields, the room left as a null message or a gap, and the continuation block's length limits.
 */
class ObjectHeaderV2Test {

    private static final long HEADER = 48;

    @TempDir
    Path dir;
    private int files;

    private static HeaderMessage message(int type, int bodySize, int fill) {
        byte[] body = new byte[bodySize];
        java.util.Arrays.fill(body, (byte) fill);
        return new HeaderMessage(type, 0, body, -1);
    }

    private BlockFile file(byte[]... blocks) throws IOException {
        BlockFile file = new BlockFile(FileStorage.open(dir.resolve("oh" + (++files) + ".h5"),
                OpenMode.CREATE_NEW));
        long at = HEADER;
        for (byte[] block : blocks) {
            file.write(at, block);
            at += block.length;
        }
        return file;
    }

    @Test
    void theChunkZeroSizeFieldGrowsAtExactly256And65536Bytes() {
        // "OHDR", version 2, flags, then the size in 1, 2 or 4 bytes.
        assertEquals("4f48445202" + "00" + "ff", HexFormat.of().formatHex(ObjectHeaderV2.chunkZeroPrefix(255)));
        assertEquals("4f48445202" + "01" + "0001", HexFormat.of().formatHex(ObjectHeaderV2.chunkZeroPrefix(256)));
        assertEquals("4f48445202" + "01" + "ffff", HexFormat.of().formatHex(ObjectHeaderV2.chunkZeroPrefix(65535)));
        assertEquals("4f48445202" + "02" + "00000100",
                HexFormat.of().formatHex(ObjectHeaderV2.chunkZeroPrefix(65536)));
        assertEquals(7, ObjectHeaderV2.chunkZeroPrefixSize(255));
        assertEquals(8, ObjectHeaderV2.chunkZeroPrefixSize(256));
        assertEquals(8, ObjectHeaderV2.chunkZeroPrefixSize(65535));
        assertEquals(10, ObjectHeaderV2.chunkZeroPrefixSize(65536));
        assertEquals(7 + 100 + 4, ObjectHeaderV2.chunkZeroSize(100));
        assertEquals(4 + 100 + 4, ObjectHeaderV2.continuationSize(100));
    }

    @Test
    void roomForAMessageHeaderBecomesANullMessageAndLessIsAGap() throws IOException {
        // 10 + 4 = 14 bytes of message in 20: a null message of 2 body bytes fills the rest.
        byte[] nullMessage = ObjectHeaderV2.encodeChunkZero(List.of(message(1, 10, 7)), 20);
        assertEquals("00" + "0200" + "00" + "0000", HexFormat.of().formatHex(nullMessage, 7 + 14, 7 + 20));
        // 14 in 17: 3 bytes left, less than a message header: zeros.
        byte[] gap = ObjectHeaderV2.encodeChunkZero(List.of(message(1, 10, 7)), 17);
        assertEquals(7 + 17 + 4, gap.length);
        try (BlockFile file = file(gap)) {
            ObjectHeaderV2.StoredHeader header = ObjectHeaderV2.readChunks(file, HEADER);
            assertEquals(1, header.chunks().size());
            ObjectHeaderV2.StoredChunk chunk = header.chunks().get(0);
            assertEquals(17, chunk.capacity());
            assertEquals(HEADER, chunk.address());
            assertEquals(7 + 17 + 4, chunk.size());
            assertArrayEquals(gap, chunk.image());
            assertEquals(1, chunk.messages().size());
            assertEquals(HEADER + 7 + 4, chunk.messages().get(0).bodyAddress());
        }
        IllegalArgumentException full = assertThrows(IllegalArgumentException.class,
                () -> ObjectHeaderV2.encodeChunkZero(List.of(message(1, 10, 7)), 13));
        assertEquals("messages need 14 bytes; the chunk holds 13", full.getMessage());
    }

    @Test
    void timesPhaseChangeAndCreationOrderFieldsAreSkippedAsTheFlagsSay() throws IOException {
        // Flags: creation order tracked, phase change values, times; 2-byte size field.
        int flags = 0x04 | 0x10 | 0x20 | 0x01;
        byte[] prefix = new LittleEndianWriter().putBytes("OHDR".getBytes(StandardCharsets.US_ASCII))
                .putByte(2).putByte(flags).putZeros(16).putShort(8).putShort(6).putShort(18)
                .toByteArray();
        // Two messages with a 2-byte creation order each: 6 + 6 bytes, and the last 6 bytes a
        // message of no body (exactly one message header left).
        byte[] messages = new LittleEndianWriter().putByte(1).putShort(0).putByte(0).putShort(5)
                .putByte(12).putShort(0).putByte(0).putShort(6)
                .putByte(3).putShort(0).putByte(0).putShort(7).toByteArray();
        byte[] chunk = new LittleEndianWriter().putBytes(prefix).putBytes(messages)
                .putChecksumFrom(0).toByteArray();
        try (BlockFile file = file(chunk)) {
            ObjectHeaderV2.StoredHeader header = ObjectHeaderV2.readChunks(file, HEADER);
            assertEquals(true, header.creationOrderTracked());
            ObjectHeaderV2.StoredChunk read = header.chunks().get(0);
            assertArrayEquals(prefix, read.prefix());
            assertEquals(18, read.capacity());
            assertEquals(List.of(1, 12, 3), read.messages().stream().map(HeaderMessage::type).toList());
            assertEquals(HEADER + prefix.length + 6, read.messages().get(0).bodyAddress());
            assertEquals(HEADER + prefix.length + 18, read.messages().get(2).bodyAddress());
        }
    }

    @Test
    void aChunkZeroTooLargeForMemoryIsCorruptAtItsSizeField() throws IOException {
        byte[] prefix = new LittleEndianWriter().putBytes("OHDR".getBytes(StandardCharsets.US_ASCII))
                .putByte(2).putByte(3).putLong(1L << 31).putZeros(8).toByteArray();
        try (BlockFile file = file(prefix)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV2.readChunks(file, HEADER));
            assertEquals(HEADER + 6, e.offset());
            assertEquals("size of chunk 0", e.field());
            assertEquals("2147483648", e.found());
        }
    }

    private static HeaderMessage continuation(long address, long length) {
        return new HeaderMessage(ContinuationMessage.TYPE, 0,
                new ContinuationMessage(address, length).encode(), -1);
    }

    @Test
    void anEmptyContinuationBlockIsReadAndAShorterOneIsCorrupt() throws IOException {
        byte[] empty = ObjectHeaderV2.encodeContinuation(List.of(), 0);
        assertEquals(8, empty.length);
        int capacity = ObjectHeaderV2.CONTINUATION_STORED_SIZE;
        long block = HEADER + ObjectHeaderV2.chunkZeroSize(capacity);
        byte[] chunkZero = ObjectHeaderV2.encodeChunkZero(List.of(continuation(block, 8)), capacity);
        try (BlockFile file = file(chunkZero, empty)) {
            ObjectHeaderV2.StoredHeader header = ObjectHeaderV2.readChunks(file, HEADER);
            assertEquals(2, header.chunks().size());
            assertEquals(block, header.chunks().get(1).address());
            assertEquals(0, header.chunks().get(1).capacity());
            assertEquals(List.of(), ObjectHeaderV2.messages(header));
        }
        byte[] tooShort = ObjectHeaderV2.encodeChunkZero(List.of(continuation(block, 7)), capacity);
        try (BlockFile file = file(tooShort, empty)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV2.readChunks(file, HEADER));
            assertEquals(block, e.offset());
            assertEquals("length", e.field());
            assertEquals("at least 8 bytes", e.expected());
            assertEquals("7", e.found());
        }
        byte[] cycle = ObjectHeaderV2.encodeChunkZero(List.of(continuation(HEADER, 8)), capacity);
        try (BlockFile file = file(cycle)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV2.read(file, HEADER));
            assertEquals("a cycle back to " + HEADER, e.found());
        }
    }
}
