package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * The local heap's free list (specification III.D) at its limits: a free block may end exactly at
 * the end of the data segment, not one byte later; a list that loops or leaves the segment is
 * refused at the field that pointed there.
 */
class LocalHeapTest {

    private static final long HEAP = 8;
    private static final long DATA = 40;
    private static final int SEGMENT = 64;
    /** Offsets of the two fields of the heap header that the free list starts from. */
    private static final long FREE_LIST_HEAD = HEAP + 16;

    @TempDir
    Path dir;
    private int files;

    /** A heap of one 64-byte data segment holding "a" at 0 and "bc" at 8; {@code freeBlocks} go in it. */
    private BlockFile heapFile(long freeListHead, long... freeBlocks) throws IOException {
        LittleEndianWriter segment = new LittleEndianWriter(SEGMENT);
        segment.putBytes("a\0\0\0\0\0\0\0bc\0".getBytes(StandardCharsets.US_ASCII));
        byte[] data = segment.putZeros(SEGMENT - segment.position()).toByteArray();
        for (int i = 0; i < freeBlocks.length; i += 3) {
            LittleEndianWriter block = new LittleEndianWriter(16).putLength(freeBlocks[i + 1])
                    .putLength(freeBlocks[i + 2]);
            System.arraycopy(block.toByteArray(), 0, data, (int) freeBlocks[i], 16);
        }
        byte[] header = new LittleEndianWriter(32).putBytes(LocalHeap.IDENTITY.signature()).putByte(0)
                .putZeros(3).putLength(SEGMENT).putLength(freeListHead).putAddress(DATA).toByteArray();
        BlockFile file = new BlockFile(FileStorage.open(dir.resolve("heap" + (++files) + ".h5"),
                OpenMode.CREATE_NEW));
        file.write(HEAP, header);
        file.write(DATA, data);
        return file;
    }

    private static CorruptFileException refused(BlockFile file) throws IOException {
        try (file) {
            return assertThrows(CorruptFileException.class, () -> LocalHeap.read(file, HEAP));
        }
    }

    @Test
    void aFreeListEndingExactlyAtTheEndOfTheSegmentIsRead() throws IOException {
        // Two free blocks: at 16 (16 bytes, next at 48) and at 48, the last 16 bytes of the segment.
        try (BlockFile file = heapFile(16, 16, 48, 16, 48, 1, 16)) {
            LocalHeap heap = LocalHeap.read(file, HEAP);
            assertEquals(HEAP, heap.address());
            assertEquals("a", heap.string(0, 100, "symbol table node", "name"));
            assertEquals("bc", heap.string(8, 100, "symbol table node", "name"));
            assertEquals("", heap.string(1, 100, "symbol table node", "name"));
            assertEquals(1L, file.checkedBlocks().get("local heap"));
        }
        try (BlockFile file = heapFile(1)) {
            LocalHeap.read(file, HEAP);
        }
        try (BlockFile file = heapFile(0, 0, 1, SEGMENT)) {
            assertEquals(HEAP, LocalHeap.read(file, HEAP).address(), "one free block: the whole segment");
        }
    }

    @Test
    void aFreeBlockHeaderCrossingTheEndOfTheSegmentIsCorrupt() throws IOException {
        CorruptFileException e = refused(heapFile(SEGMENT - 15));
        assertEquals(FREE_LIST_HEAD, e.offset());
        assertEquals("local heap", e.structure());
        assertEquals("offset to head of free list", e.field());
        assertEquals("49", e.found());
        assertEquals("the offset of a free block not yet listed, inside the data segment of 64 bytes, or 1 (none)",
                e.expected());
        assertEquals("18446744073709551615", refused(heapFile(-1)).found(), "offsets are unsigned");
    }

    @Test
    void aFreeListThatLoopsIsCorruptAtTheLinkThatCloses() throws IOException {
        CorruptFileException e = refused(heapFile(16, 16, 48, 16, 48, 16, 16));
        assertEquals(DATA + 48, e.offset(), "the next-pointer of the block at 48 leads back to 16");
        assertEquals("offset of next free block", e.field());
        assertEquals("16", e.found());
        CorruptFileException self = refused(heapFile(16, 16, 16, 16));
        assertEquals(DATA + 16, self.offset());
    }

    @Test
    void freeBlockSizesBelowTheirHeaderOrBeyondTheSegmentAreCorrupt() throws IOException {
        CorruptFileException small = refused(heapFile(48, 48, 1, 15));
        assertEquals(DATA + 48 + 8, small.offset());
        assertEquals("size of free block", small.field());
        assertEquals("16..16", small.expected());
        assertEquals("15", small.found());
        CorruptFileException large = refused(heapFile(32, 32, 1, 33));
        assertEquals(DATA + 32 + 8, large.offset());
        assertEquals("16..32", large.expected());
        assertEquals("33", large.found());
        try (BlockFile file = heapFile(32, 32, 1, 32)) {
            LocalHeap.read(file, HEAP);
        }
    }

    @Test
    void stringsOutsideTheSegmentOrWithoutTerminatorAreCorrupt() throws IOException {
        try (BlockFile file = heapFile(1)) {
            LocalHeap heap = LocalHeap.read(file, HEAP);
            CorruptFileException outside = assertThrows(CorruptFileException.class,
                    () -> heap.string(SEGMENT, 500, "symbol table node", "link name offset"));
            assertEquals(500, outside.offset());
            assertEquals("symbol table node", outside.structure());
            assertEquals("link name offset", outside.field());
            assertEquals("an offset below the size 64 of the local heap at 8", outside.expected());
            assertEquals("64", outside.found());
            assertEquals("18446744073709551615", assertThrows(CorruptFileException.class,
                    () -> heap.string(-1, 500, "symbol table node", "link name offset")).found());
        }
        try (BlockFile file = heapFile(1)) {
            byte[] full = new byte[SEGMENT];
            java.util.Arrays.fill(full, (byte) 'x');
            file.write(DATA, full);
            LocalHeap heap = LocalHeap.read(file, HEAP);
            CorruptFileException unterminated = assertThrows(CorruptFileException.class,
                    () -> heap.string(60, 500, "symbol table node", "link name offset"));
            assertEquals(DATA + 60, unterminated.offset());
            assertEquals("local heap data segment", unterminated.structure());
            assertEquals("string", unterminated.field());
            assertEquals("none", unterminated.found());
        }
    }

    @Test
    void aDataSegmentLargerThanTheFileIsCorruptAtItsSizeField() throws IOException {
        try (BlockFile file = heapFile(1)) {
            file.write(HEAP + 8, new LittleEndianWriter(8).putLength(105).toByteArray());
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> LocalHeap.read(file, HEAP));
            assertEquals(HEAP + 8, e.offset());
            assertEquals("data segment size", e.field());
            assertEquals("at most 104 (the file size, and an array's)", e.expected());
            assertEquals("105", e.found());
        }
    }
}
