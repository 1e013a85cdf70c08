package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@link LocalHeap}'s writing in the JVM (the h5py comparisons in LocalHeapWritingTest start an
 * outside program): after inserts, growth and removals the encoded header (data segment size,
 * free list head, data segment address) and data segment (names at multiples of 8, each free
 * block's next offset and size) are compared byte for byte with images worked out by hand from
 * specification III.D and the libhdf5 rules in LocalHeap's javadoc.
 */
class LocalHeapWritingMutationGapsTest {

    private static final long HEAP = 8;
    private static final long DATA = 40;
    private static final long NONE = 1;
    private static final String NAME_15 = "abcdefghijklmno";
    private static final String NAME_20 = "abcdefghijklmnopqrst";

    @TempDir
    Path dir;
    private final List<Long> allocations = new ArrayList<>();

    /** A data segment of {@code size} bytes. */
    private static byte[] segment(int size) {
        return new byte[size];
    }

    private static byte[] name(byte[] data, int at, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, data, at, bytes.length);
        data[at + bytes.length] = 0;
        return data;
    }

    /** Writes a free block header (next offset, size) at {@code at}. */
    private static byte[] free(byte[] data, int at, long next, long size) {
        byte[] header = new LittleEndianWriter(16).putLength(next).putLength(size).toByteArray();
        System.arraycopy(header, 0, data, at, 16);
        return data;
    }

    private static byte[] header(long size, long head, long address) {
        return new LittleEndianWriter(32).putBytes(LocalHeap.IDENTITY.signature()).putByte(0)
                .putZeros(3).putLength(size).putLength(head).putAddress(address).toByteArray();
    }

    private LocalHeap heap(byte[] data, long head) throws IOException {
        try (BlockFile file = new BlockFile(FileStorage.open(dir.resolve("heap.h5"), OpenMode.CREATE_NEW))) {
            return LocalHeap.decode(file, HEAP, header(data.length, head, DATA), data);
        }
    }

    private long insert(LocalHeap heap, String name) {
        return heap.insert(name.getBytes(StandardCharsets.US_ASCII), length -> {
            allocations.add(length);
            return 500;
        });
    }

    private static void assertHeap(LocalHeap heap, long size, long head, long address, byte[] data) {
        assertArrayEquals(header(size, head, address), heap.headerImage(), "local heap header");
        assertArrayEquals(data, heap.dataImage(), "local heap data segment");
    }

    /** "a" at 0, "bc" at 8, free blocks at 16 and 48 (16 bytes each), NAME_15 at 32. */
    private static byte[] twoFreeBlocks(long nextOf16, long nextOf48) {
        byte[] data = name(name(name(segment(64), 0, "a"), 8, "bc"), 32, NAME_15);
        return free(free(data, 16, nextOf16, 16), 48, nextOf48, 16);
    }

    @Test
    void aNameFillingAFreeBlockExactlyTakesItOffTheList() throws IOException {
        LocalHeap heap = heap(twoFreeBlocks(48, NONE), 16);
        assertEquals(16, insert(heap, NAME_15), "15 bytes and the NUL fill the 16-byte block at 16");
        byte[] expected = name(name(name(name(segment(64), 0, "a"), 8, "bc"), 16, NAME_15), 32, NAME_15);
        assertHeap(heap, 64, 48, DATA, free(expected, 48, NONE, 16));
        assertEquals(List.of(), allocations);
    }

    @Test
    void aNameLeavingAtLeastAFreeBlockHeaderShrinksTheBlockFromItsStart() throws IOException {
        byte[] data = free(name(name(segment(64), 0, "a"), 8, "bc"), 16, NONE, 48);
        LocalHeap heap = heap(data, 16);
        assertEquals(16, insert(heap, "xyz"), "4 bytes take 8 of the 48 at 16");
        assertEquals(24, insert(heap, "0123456789"), "11 bytes take 16 of the 40 at 24");
        byte[] expected = name(name(name(name(segment(64), 0, "a"), 8, "bc"), 16, "xyz"), 24, "0123456789");
        assertHeap(heap, 64, 40, DATA, free(expected, 40, NONE, 24));
    }

    @Test
    void growingMergesTheNewSpaceWithTheFreeBlockEndingTheSegment() throws IOException {
        // The list is 48 -> 16: the block nearest the end is found though it is not the last listed;
        // neither fits 24 bytes, and 8 left over in the block at 16 would be fewer than a header.
        LocalHeap heap = heap(twoFreeBlocks(NONE, 16), 48);
        assertEquals(48, insert(heap, NAME_20));
        assertEquals(List.of(128L), allocations, "64 bytes grow by max(24, 64)");
        byte[] expected = name(name(name(name(segment(128), 0, "a"), 8, "bc"), 32, NAME_15), 48, NAME_20);
        assertHeap(heap, 128, 72, 500, free(free(expected, 16, NONE, 16), 72, 16, 16 + 64 - 24));
    }

    @Test
    void growingWithoutAFreeBlockAtTheEndPutsTheNewTailFirstOnTheList() throws IOException {
        byte[] data = name(name(name(name(segment(64), 0, "a"), 8, "bc"), 32, NAME_15), 48, "last");
        LocalHeap heap = heap(free(data, 16, NONE, 16), 16);
        assertEquals(64, insert(heap, NAME_20), "the block at 16 is the last free one but ends at 32");
        assertEquals(List.of(128L), allocations);
        byte[] expected = name(name(name(name(name(segment(128), 0, "a"), 8, "bc"), 32, NAME_15), 48, "last"),
                64, NAME_20);
        assertHeap(heap, 128, 88, 500, free(free(expected, 16, NONE, 16), 88, 16, 64 - 24));
    }

    @Test
    void growingByLessThanANameAndAFreeBlockHeaderGrowsByTheNameOnly() throws IOException {
        byte[] full = name(name(name(segment(32), 0, "a"), 8, "bc"), 16, NAME_15);
        LocalHeap heap = heap(full, NONE);
        assertEquals(32, insert(heap, NAME_20));
        assertEquals(List.of(56L), allocations, "max(24, 32) = 32 < 24 + 16, so 32 + 24");
        byte[] expected = name(name(name(name(segment(56), 0, "a"), 8, "bc"), 16, NAME_15), 32, NAME_20);
        assertHeap(heap, 56, NONE, 500, expected);
    }

    /** Free X at 0 (16), "bc" at 16, free Y at 24 (16), NAME_15 at 40, "zz" at 56; the list X->Y or Y->X. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRemovedNameBetweenTwoFreeBlocksMergesAllThree(boolean lowerFirst) throws IOException {
        byte[] data = name(name(name(segment(64), 16, "bc"), 40, NAME_15), 56, "zz");
        free(data, 0, lowerFirst ? 24 : NONE, 16);
        free(data, 24, lowerFirst ? NONE : 0, 16);
        LocalHeap heap = heap(data, lowerFirst ? 0 : 24);
        heap.remove(16, 3);
        byte[] expected = name(name(name(segment(64), 16, "bc"), 40, NAME_15), 56, "zz");
        free(expected, 24, lowerFirst ? NONE : 0, 16); // the merged block's old header stays
        assertHeap(heap, 64, 0, DATA, free(expected, 0, NONE, 40));
    }

    @Test
    void removalsJoinNeighboursUntilTheLastNameFreesTheWholeSegment() throws IOException {
        byte[] data = name(name(name(segment(64), 0, "a"), 8, NAME_15), 24, "bc");
        LocalHeap heap = heap(free(data, 32, NONE, 32), 32);
        heap.remove(8, 16);
        byte[] expected = name(name(name(segment(64), 0, "a"), 8, NAME_15), 24, "bc");
        assertHeap(heap, 64, 8, DATA, free(free(expected.clone(), 8, 32, 16), 32, NONE, 32));
        heap.remove(0, 2);
        assertHeap(heap, 64, 0, DATA, free(free(expected.clone(), 0, 32, 24), 32, NONE, 32));
        heap.remove(24, 3);
        assertHeap(heap, 64, 0, DATA, free(free(expected.clone(), 0, NONE, 64), 32, NONE, 32));
    }

    @Test
    void aRemovedNameShorterThanAFreeBlockHeaderWithoutNeighboursIsLost() throws IOException {
        byte[] data = name(name(segment(64), 0, "a"), 8, "bc");
        LocalHeap heap = heap(free(data, 48, NONE, 16), 48);
        heap.remove(0, 2);
        heap.remove(8, 3);
        assertHeap(heap, 64, 48, DATA, free(name(name(segment(64), 0, "a"), 8, "bc"), 48, NONE, 16));
    }

    @Test
    void removalsOutsideTheSegmentOrOffTheAlignmentAreRefused() throws IOException {
        LocalHeap heap = heap(name(segment(64), 0, "a"), NONE);
        assertEquals("no heap object of 2 bytes at 4 in the 64-byte segment of the local heap at 8",
                assertThrows(IllegalArgumentException.class, () -> heap.remove(4, 2)).getMessage());
        assertEquals("no heap object of 9 bytes at 56 in the 64-byte segment of the local heap at 8",
                assertThrows(IllegalArgumentException.class, () -> heap.remove(56, 9)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> heap.remove(-8, 2));
        heap.remove(48, 16);
        assertHeap(heap, 64, 48, DATA, free(name(segment(64), 0, "a"), 48, NONE, 16));
    }

    @Test
    void aNameWithANulByteIsRefused() throws IOException {
        LocalHeap heap = heap(name(segment(64), 0, "a"), NONE);
        assertEquals("a name with a NUL byte cannot be stored in a local heap: \"x\0y\"",
                assertThrows(IllegalArgumentException.class, () -> insert(heap, "x\0y")).getMessage());
    }

    @Test
    void aDataSegmentAsLargeAsTheFileIsAccepted() throws IOException {
        try (BlockFile file = new BlockFile(FileStorage.open(dir.resolve("h.h5"), OpenMode.CREATE_NEW))) {
            file.write(HEAP, header(HEAP + 32, NONE, DATA));
            assertArrayEquals(header(40, NONE, DATA), LocalHeap.readHeader(file, HEAP));
        }
    }
}
