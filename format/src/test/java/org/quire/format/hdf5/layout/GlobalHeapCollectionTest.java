package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Global heap collections (specification III.E) at their limits: an object filling the free
 * space exactly, free space of exactly one object header, the 65,535th object, the collection
 * size against the file and objects against the collection, built field by field.
 */
class GlobalHeapCollectionTest {

    private static final long AT = 32;

    @TempDir
    Path dir;
    private int files;

    private BlockFile file(long address, byte[] image) throws IOException {
        BlockFile file = new BlockFile(FileStorage.open(dir.resolve("gh" + (++files) + ".h5"),
                OpenMode.CREATE_NEW));
        file.write(address, image);
        return file;
    }

    /** A collection header ("GCOL", version 1) of {@code size} bytes followed by {@code body}. */
    private static byte[] collection(long size, byte[] body) {
        return new LittleEndianWriter().putBytes("GCOL".getBytes(StandardCharsets.US_ASCII))
                .putByte(1).putZeros(3).putLength(size).putBytes(body).toByteArray();
    }

    private static LittleEndianWriter object(LittleEndianWriter out, int index, long size) {
        return out.putShort(index).putShort(1).putInt(0).putLength(size);
    }

    @Test
    void aNewCollectionIsOneFreeSpaceAndTakesAnObjectFillingItExactly() throws IOException {
        GlobalHeapCollection heap = GlobalHeapCollection.empty(AT, 4096);
        assertEquals("47434f4c" + "01000000" + "0010000000000000" + "0000" + "0000" + "00000000"
                + "f00f000000000000", HexFormat.of().formatHex(heap.image(), 0, 32));
        assertEquals(AT, heap.address());
        assertFalse(heap.fits(new byte[4065]));
        byte[] exact = new byte[4064];
        exact[4063] = 9;
        assertTrue(heap.fits(exact));
        assertEquals(1, heap.add(exact));
        assertFalse(heap.fits(new byte[0]));
        assertEquals(1, heap.objectCount());
        GlobalHeapObject object = heap.object(Path.of("x"), 1);
        assertArrayEquals(exact, object.bytes());
        assertEquals(AT + 32, object.address()); // past the collection's and the object's header
    }

    @Test
    void freeSpaceOfExactlyOneObjectHeaderKeepsItsHeaderAndTakesAnEmptyObject() throws IOException {
        GlobalHeapCollection heap = GlobalHeapCollection.empty(AT, 4096);
        heap.add(new byte[4048]);
        // 16 + 4064 bytes used: the free space header at 4080 says 16 bytes.
        assertEquals("0000" + "0000" + "00000000" + "1000000000000000",
                HexFormat.of().formatHex(heap.image(), 4080, 4096));
        try (BlockFile file = file(AT, heap.image())) {
            GlobalHeapCollection read = GlobalHeapCollection.read(file, AT);
            assertEquals(1L, file.checkedBlocks().get(GlobalHeapCollection.IDENTITY.structure()));
            assertTrue(read.fits(new byte[0]));
            assertEquals(2, read.add(new byte[0]));
            assertEquals(0, read.object(file.path(), 2).bytes().length);
        }
    }

    @Test
    void addingZeroesWhatFollowsTheObjectInFreeSpaceReadFromAFile() throws IOException {
        byte[] image = GlobalHeapCollection.empty(AT, 4096).image();
        image[100] = 5;
        image[4095] = 6;
        try (BlockFile file = file(AT, image)) {
            GlobalHeapCollection heap = GlobalHeapCollection.read(file, AT);
            heap.add("abc".getBytes(StandardCharsets.US_ASCII));
            byte[] after = heap.image();
            assertEquals(0, after[100]);
            assertEquals(0, after[4095]);
            // The object takes 16 + 8 bytes from 16; the free space header at 40 says the rest.
            assertEquals("abc", new String(heap.object(file.path(), 1).bytes(), StandardCharsets.US_ASCII));
            assertEquals(4096 - 40, readLong(after, 48));
        }
    }

    private static long readLong(byte[] bytes, int at) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | bytes[at + i] & 0xff;
        }
        return value;
    }

    @Test
    void onlySizesFrom4096InMultiplesOf8AreCreated() {
        GlobalHeapCollection.empty(AT, 4096);
        assertThrows(IllegalArgumentException.class, () -> GlobalHeapCollection.empty(AT, 4088));
        assertThrows(IllegalArgumentException.class, () -> GlobalHeapCollection.empty(AT, 4100));
        assertThrows(IllegalArgumentException.class,
                () -> GlobalHeapCollection.empty(AT, Integer.MAX_VALUE - 7L));
    }

    @Test
    void the65535thObjectIsTheLast() {
        GlobalHeapCollection heap = GlobalHeapCollection.empty(AT, 16 + 65536L * 16);
        for (int i = 1; i <= 65535; i++) {
            assertEquals(i, heap.add(new byte[0]));
        }
        assertFalse(heap.fits(new byte[0]), "room for one more, but no index");
        assertThrows(IllegalStateException.class, () -> heap.add(new byte[0]));
    }

    @Test
    void aCollectionSizeFromTheHeaderAloneToTheFileSizeIsRead() throws IOException {
        try (BlockFile file = file(0, collection(16, new byte[0]))) {
            assertEquals(0, GlobalHeapCollection.read(file, 0).objectCount());
        }
        // The whole file, its last 16 bytes an object of no data (not free space).
        byte[] body = object(object(new LittleEndianWriter(), 1, 8).putLong(-1), 2, 0).toByteArray();
        try (BlockFile file = file(0, collection(56, body))) {
            GlobalHeapCollection read = GlobalHeapCollection.read(file, 0);
            assertEquals(2, read.objectCount());
            assertEquals(0, read.object(file.path(), 2).bytes().length);
            assertArrayEquals(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}, read.object(file.path(), 1).bytes());
            assertEquals(16 + 16, read.object(file.path(), 1).address());
            assertEquals(16 + 16 + 8 + 16, read.object(file.path(), 2).address());
        }
        for (long size : new long[] {15, 57}) {
            try (BlockFile file = file(0, collection(size, body))) {
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> GlobalHeapCollection.read(file, 0));
                assertEquals(8, e.offset());
                assertEquals("collection size", e.field());
                assertEquals("16 to 56", e.expected());
                assertEquals(Long.toString(size), e.found());
            }
        }
    }

    @Test
    void anObjectReachingExactlyToTheEndIsReadAndOneByteMoreIsCorrupt() throws IOException {
        byte[] fits = object(new LittleEndianWriter(), 1, 16).putZeros(16).toByteArray();
        try (BlockFile file = file(0, collection(48, fits))) {
            assertEquals(16, GlobalHeapCollection.read(file, 0).object(file.path(), 1).bytes().length);
        }
        byte[] beyond = object(new LittleEndianWriter(), 1, 17).putZeros(16).toByteArray();
        try (BlockFile file = file(0, collection(48, beyond))) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> GlobalHeapCollection.read(file, 0));
            assertEquals(16 + 8, e.offset());
            assertEquals("object size", e.field());
            assertEquals("at most the 16 bytes left in the collection", e.expected());
            assertEquals("17", e.found());
        }
    }

    @Test
    void aWrongSignatureIsRefused() throws IOException {
        byte[] image = collection(16, new byte[0]);
        image[0] = 'X';
        try (BlockFile file = file(0, image)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> GlobalHeapCollection.read(file, 0));
            assertEquals(0, e.offset());
        }
    }
}
