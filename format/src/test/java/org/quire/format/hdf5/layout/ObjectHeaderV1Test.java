package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Version-1 object headers (specification IV.A.1.a) built field by field: messages in order,
 * null and continuation messages left out, the continuation chain followed and bounded, and every
 * field a damaged header can get wrong refused at its offset.
 */
class ObjectHeaderV1Test {

    private static final long HEADER = 8;
    /** The object header size field: version, reserved, message count and reference count before it. */
    private static final long SIZE_FIELD = HEADER + 8;
    private static final long FIRST_MESSAGE = HEADER + 16;
    private static final int DATASPACE = 0x0001;
    private static final int DATATYPE = DatatypeMessage.TYPE;

    @TempDir
    Path dir;
    private int files;

    private static LittleEndianWriter message(LittleEndianWriter out, int type, int flags, byte[] body) {
        return out.putShort(type).putShort(body.length).putByte(flags).putZeros(3).putBytes(body);
    }

    private static byte[] continuation(long address, long length) {
        return new ContinuationMessage(address, length).encode();
    }

    private static byte[] filled(int size, int value) {
        byte[] body = new byte[size];
        java.util.Arrays.fill(body, (byte) value);
        return body;
    }

    private static byte[] prefix(int version, long size) {
        return new LittleEndianWriter(16).putByte(version).putByte(0).putShort(3).putInt(1)
                .putInt((int) size).putZeros(4).toByteArray();
    }

    private BlockFile file() throws IOException {
        return new BlockFile(FileStorage.open(dir.resolve("header" + (++files) + ".h5"),
                OpenMode.CREATE_NEW));
    }

    /** A header at {@link #HEADER} whose only chunk holds {@code messages}. */
    private BlockFile header(int version, byte[] messages) throws IOException {
        BlockFile file = file();
        file.write(HEADER, prefix(version, messages.length));
        file.write(FIRST_MESSAGE, messages);
        return file;
    }

    @Test
    void readsTheMessagesOfTheHeaderAndItsContinuationInOrder() throws IOException {
        long block = 200;
        byte[] chunk = message(new LittleEndianWriter(), DATASPACE, 0, filled(8, 1))
                .putBytes(message(new LittleEndianWriter(), 0, 0, new byte[8]).toByteArray())
                .putBytes(message(new LittleEndianWriter(), ContinuationMessage.TYPE, 0,
                        continuation(block, 24)).toByteArray())
                .toByteArray();
        // The continuation block ends with a message of no body: exactly 8 bytes are left there.
        byte[] continued = message(new LittleEndianWriter(), DATATYPE, HeaderMessage.FLAG_SHARED,
                filled(8, 2)).putBytes(message(new LittleEndianWriter(), 0x000C, 1, new byte[0])
                .toByteArray()).toByteArray();
        try (BlockFile file = header(1, chunk)) {
            file.write(block, continued);
            List<HeaderMessage> messages = ObjectHeaderV1.read(file, HEADER);
            assertEquals(3, messages.size());
            assertEquals(DATASPACE, messages.get(0).type());
            assertEquals(0, messages.get(0).flags());
            assertEquals(FIRST_MESSAGE + 8, messages.get(0).bodyAddress());
            assertArrayEquals(filled(8, 1), messages.get(0).body());
            // A shared datatype is the one shared message read (it names a committed datatype).
            assertEquals(DATATYPE, messages.get(1).type());
            assertEquals(HeaderMessage.FLAG_SHARED, messages.get(1).flags());
            assertEquals(block + 8, messages.get(1).bodyAddress());
            assertArrayEquals(filled(8, 2), messages.get(1).body());
            assertEquals(0x000C, messages.get(2).type());
            assertEquals(block + 24, messages.get(2).bodyAddress());
            assertEquals(0, messages.get(2).body().length);
            assertEquals(1L, file.checkedBlocks().get(ObjectHeaderV1.STRUCTURE));
            assertEquals(1L, file.checkedBlocks().get(ObjectHeaderV1.CONTINUATION_STRUCTURE));
        }
    }

    @Test
    void aVersionOtherThanOneIsCorruptAtTheHeader() throws IOException {
        try (BlockFile file = header(2, new byte[0])) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV1.read(file, HEADER));
            assertEquals(HEADER, e.offset());
            assertEquals(ObjectHeaderV1.STRUCTURE, e.structure());
            assertEquals("version", e.field());
            assertEquals("1 (or the signature \"OHDR\" of version 2)", e.expected());
            assertEquals("2", e.found());
        }
    }

    @Test
    void aHeaderSizeNotAMultipleOfEightOrTooLargeIsCorruptAtTheSizeField() throws IOException {
        for (long size : new long[] {12, 0x7ffffff8L, 0xfffffff8L}) {
            try (BlockFile file = file()) {
                file.write(HEADER, prefix(1, size));
                file.write(FIRST_MESSAGE, new byte[16]);
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> ObjectHeaderV1.read(file, HEADER));
                assertEquals(SIZE_FIELD, e.offset());
                assertEquals("object header size", e.field());
                assertEquals("a multiple of 8 that fits in memory", e.expected());
                assertEquals(Long.toString(size), e.found());
            }
        }
    }

    @Test
    void aMessageSizeNotAMultipleOfEightIsCorruptAtThatField() throws IOException {
        byte[] chunk = message(new LittleEndianWriter(), DATASPACE, 0, new byte[8])
                .putShort(DATASPACE).putShort(4).putByte(0).putZeros(3).putZeros(8).toByteArray();
        try (BlockFile file = header(1, chunk)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV1.read(file, HEADER));
            assertEquals(FIRST_MESSAGE + 16 + 2, e.offset());
            assertEquals("message size", e.field());
            assertEquals("a multiple of 8", e.expected());
            assertEquals("4", e.found());
        }
    }

    @Test
    void aSharedMessageOtherThanADatatypeIsUnsupportedAtItsBody() throws IOException {
        byte[] chunk = message(new LittleEndianWriter(), DATATYPE, HeaderMessage.FLAG_SHARED, new byte[8])
                .putBytes(message(new LittleEndianWriter(), DATASPACE, HeaderMessage.FLAG_SHARED,
                        new byte[8]).toByteArray()).toByteArray();
        try (BlockFile file = header(1, chunk)) {
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> ObjectHeaderV1.read(file, HEADER));
            assertEquals(FIRST_MESSAGE + 16 + 8, e.offset());
            assertEquals("message of type 1 shared (flag set)", e.found());
        }
    }

    @Test
    void aContinuationBackToTheHeaderIsACycle() throws IOException {
        byte[] chunk = message(new LittleEndianWriter(), ContinuationMessage.TYPE, 0,
                continuation(HEADER, 24)).toByteArray();
        try (BlockFile file = header(1, chunk)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV1.read(file, HEADER));
            assertEquals(HEADER, e.offset());
            assertEquals(ObjectHeaderV1.CONTINUATION_STRUCTURE, e.structure());
            assertEquals("continuation offset", e.field());
            assertEquals("a block not yet part of the object header at 8", e.expected());
            assertEquals("a cycle back to 8", e.found());
        }
    }

    @Test
    void aContinuationLengthNotAMultipleOfEightOrTooLargeIsCorruptAtTheBlock() throws IOException {
        for (long length : new long[] {12, 0x80000000L}) {
            byte[] chunk = message(new LittleEndianWriter(), ContinuationMessage.TYPE, 0,
                    continuation(300, length)).toByteArray();
            try (BlockFile file = header(1, chunk)) {
                file.write(300, new byte[16]);
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> ObjectHeaderV1.read(file, HEADER));
                assertEquals(300, e.offset());
                assertEquals("length", e.field());
                assertEquals("a multiple of 8 that fits in memory", e.expected());
                assertEquals(Long.toString(length), e.found());
            }
        }
    }

    /**
     * A chain of {@code blocks} continuation blocks of 24 bytes each, every one pointing to the
     * next, the last holding one dataspace message.
     */
    private BlockFile chain(int blocks) throws IOException {
        long first = 64;
        byte[] chunk = message(new LittleEndianWriter(), ContinuationMessage.TYPE, 0,
                continuation(first, 24)).toByteArray();
        BlockFile file = header(1, chunk);
        LittleEndianWriter all = new LittleEndianWriter(blocks * 24);
        for (int i = 0; i < blocks; i++) {
            long next = first + (i + 1) * 24L;
            if (i + 1 < blocks) {
                message(all, ContinuationMessage.TYPE, 0, continuation(next, 24));
            } else {
                message(all, DATASPACE, 0, filled(16, 7));
            }
        }
        file.write(first, all.toByteArray());
        return file;
    }

    @Test
    void aChainOf4096BlocksIsReadAndOneMoreIsCorrupt() throws IOException {
        // The header itself and 4095 continuation blocks: 4096 blocks, the limit.
        try (BlockFile file = chain(4095)) {
            List<HeaderMessage> messages = ObjectHeaderV1.read(file, HEADER);
            assertEquals(1, messages.size());
            assertArrayEquals(filled(16, 7), messages.get(0).body());
            assertEquals(4095L, file.checkedBlocks().get(ObjectHeaderV1.CONTINUATION_STRUCTURE));
        }
        try (BlockFile file = chain(4096)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ObjectHeaderV1.read(file, HEADER));
            assertEquals(64 + 4095 * 24L, e.offset());
            assertEquals("continuation offset", e.field());
            assertEquals("more than 4096 blocks", e.found());
        }
    }

    /**
     * A patch changes message bodies in place, the rest of each block as read (null messages,
     * reserved bytes, the continuation); a body of another size or type is refused.
     */
    @Test
    void patchesBodiesOfTheSameSizeInPlaceOnly() throws IOException {
        long block = 200;
        byte[] chunk = message(new LittleEndianWriter(), DATASPACE, 0, filled(8, 1))
                .putBytes(message(new LittleEndianWriter(), 0, 0, filled(8, 9)).toByteArray())
                .putBytes(message(new LittleEndianWriter(), ContinuationMessage.TYPE, 0,
                        continuation(block, 16)).toByteArray())
                .toByteArray();
        byte[] continued = message(new LittleEndianWriter(), DATATYPE, 0, filled(8, 2))
                .toByteArray();
        try (BlockFile file = header(1, chunk)) {
            file.write(block, continued);
            List<ObjectHeaderV1.StoredChunk> chunks = ObjectHeaderV1.readChunks(file, HEADER);
            assertEquals(List.of(HEADER, block), chunks.stream()
                    .map(ObjectHeaderV1.StoredChunk::address).toList());
            ObjectHeaderV1.StoredChunk first = chunks.get(0);
            assertArrayEquals(file.read(HEADER, 16 + chunk.length, "header"), first.image());
            assertArrayEquals(first.image(), ObjectHeaderV1.patch(first, first.messages()));
            HeaderMessage space = first.messages().get(0);
            byte[] patched = ObjectHeaderV1.patch(first, List.of(new HeaderMessage(DATASPACE, 0,
                    filled(8, 7), space.bodyAddress())));
            byte[] expected = first.image().clone();
            java.util.Arrays.fill(expected, 24, 32, (byte) 7);
            assertArrayEquals(expected, patched);
            assertThrows(IllegalArgumentException.class, () -> ObjectHeaderV1.patch(first,
                    List.of(new HeaderMessage(DATASPACE, 0, filled(16, 7),
                            space.bodyAddress()))));
            assertThrows(IllegalArgumentException.class, () -> ObjectHeaderV1.patch(first,
                    List.of(new HeaderMessage(DATATYPE, 0, filled(8, 7),
                            space.bodyAddress()))));
            assertThrows(IllegalArgumentException.class, () -> ObjectHeaderV1.patch(first,
                    List.of(chunks.get(1).messages().get(0))));
        }
    }
}
