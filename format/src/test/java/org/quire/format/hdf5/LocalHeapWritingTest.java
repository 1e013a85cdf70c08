package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@link LocalHeap}'s insertions and removals against libhdf5's own: the heap of an old-style
 * group h5py wrote, changed by Quire name by name, must hold exactly the bytes (strings, free
 * block headers, cleared space) and free list head that h5py leaves in a copy after the same
 * link changes; only a grown segment's address differs (Quire moves it to the end of the file,
 * libhdf5 may extend it in place). The heaps h5py wrote encode back to their own bytes.
 */
@StartsOutsideProgram
class LocalHeapWritingTest {

    private static final List<String> BASE = List.of("a1", "b22", "c333");

    @TempDir
    Path dir;

    @Test
    void aNameFittingTheFreeListTakesItsFirstBlock() throws IOException {
        assertSameHeap("fits", List.of("+x"));
    }

    @Test
    void aHeapGrowsAsLibhdf5GrowsIt() throws IOException {
        List<String> ops = new ArrayList<>();
        for (String name : OldStyleGroupFixture.names("link", 40)) {
            ops.add("+" + name);
        }
        HeapPair pair = assertSameHeap("grows", ops);
        assertEquals(704, pair.quire.dataSize(), "88 bytes doubled three times");
    }

    @Test
    void removedNamesMergeWithTheirNeighboursAsInLibhdf5() throws IOException {
        assertSameHeap("removes", List.of("+name-long-0", "+name-long-1", "+name-long-2",
                "+name-long-3", "+name-long-4", "+name-long-5", "-name-long-2", "-name-long-3",
                "-name-long-1", "+y", "-name-long-0", "+zz", "+name-long-6", "-name-long-4"));
    }

    /** Quire's heap after {@code ops} and libhdf5's. */
    private record HeapPair(LocalHeap quire, byte[] libhdf5Header, byte[] libhdf5Data) {
    }

    private HeapPair assertSameHeap(String name, List<String> ops) throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, name, BASE, ops);
        long heapAddress = OldStyleGroupFixture.symbolTable(fixture.file()).localHeapAddress();
        long twinHeapAddress = OldStyleGroupFixture.symbolTable(fixture.twin()).localHeapAddress();
        assertEquals(heapAddress, twinHeapAddress, "the heap header never moves");
        LocalHeap heap;
        long[] end = new long[1];
        try (BlockFile file = new BlockFile(FileStorage.open(fixture.file(), OpenMode.READ))) {
            heap = LocalHeap.read(file, heapAddress);
            assertArrayEquals(file.read(heapAddress, LocalHeap.HEADER_SIZE, "heap"),
                    heap.headerImage(), "encode(read(header)) == header");
            assertArrayEquals(file.read(heap.dataAddress(), heap.dataSize(), "heap"),
                    heap.dataImage(), "encode(read(segment)) == segment");
            end[0] = file.size();
        }
        Map<String, Long> offsets = new HashMap<>();
        for (String op : ops) {
            String link = op.substring(1);
            byte[] bytes = link.getBytes(StandardCharsets.UTF_8);
            if (op.charAt(0) == '+') {
                offsets.put(link, heap.insert(bytes, length -> {
                    long at = end[0];
                    end[0] += length;
                    return at;
                }));
            } else {
                heap.remove(offsets.remove(link), bytes.length + 1);
            }
        }
        try (BlockFile twin = new BlockFile(FileStorage.open(fixture.twin(), OpenMode.READ))) {
            byte[] header = twin.read(heapAddress, LocalHeap.HEADER_SIZE, "heap");
            byte[] data = twin.read(LocalHeap.dataAddress(header), LocalHeap.dataSize(header),
                    "heap");
            assertArrayEquals(data, heap.dataImage(), "the segment's bytes");
            assertArrayEquals(Arrays.copyOf(header, 24), Arrays.copyOf(heap.headerImage(), 24),
                    "the header but for the segment's address");
            LocalHeap reread = LocalHeap.read(twin, heapAddress);
            for (Map.Entry<String, Long> link : offsets.entrySet()) {
                assertEquals(link.getKey(), reread.string(link.getValue(), 0, "test", "name"));
            }
            if (heap.dataSize() != 88) {
                assertNotEquals(heapAddress + LocalHeap.HEADER_SIZE, heap.dataAddress(),
                        "a grown segment moved");
            }
            return new HeapPair(heap, header, data);
        }
    }
}
