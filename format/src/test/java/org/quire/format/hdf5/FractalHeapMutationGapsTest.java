package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BTreeV2HugeObjectRecord;
import org.quire.format.hdf5.layout.BTreeV2Reader;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.FractalHeapDirectBlock;
import org.quire.format.hdf5.layout.FractalHeapHeader;
import org.quire.format.hdf5.layout.FractalHeapIndirectBlock;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@link FractalHeap} on the heaps libhdf5 wrote into the committed {@code dense.h5}
 * ({@code make_h5py_dense_fixtures.py}), read through heap IDs made by hand: objects at the
 * edges of their direct block and of the managed size limit, offsets outside the root's rows,
 * tiny objects, huge objects by key and by address, the huge-object index against the file's
 * end, and blocks read once while objects of the same block are read. {@link
 * DamagedDenseFilesTest} covers damaged blocks reached through the file's own IDs.
 */
class FractalHeapMutationGapsTest {

    @TempDir
    static Path dir;
    private static Path intact;
    private static byte[] bytes;
    /** /ordered's attribute heap: one root direct block of 1 KiB, 8-byte IDs. */
    private static long orderedAttributes;
    /** /attributes' attribute heap: 8-byte IDs, one huge object (key 1). */
    private static long hugeHolder;
    /** /wide's link heap: a root indirect block of 12 rows, 7-byte IDs (4-byte offsets). */
    private static long wide;

    @BeforeAll
    static void findHeaps() throws IOException {
        intact = H5pyFixtures.of(H5pyFixtures.DENSE).file("dense.h5");
        bytes = Files.readAllBytes(intact);
        try (Hdf5File file = Hdf5File.open(intact)) {
            orderedAttributes = file.root().group("ordered").denseAttributes().heap().address();
            hugeHolder = file.root().group("attributes").denseAttributes().heap().address();
            wide = file.root().group("wide").denseLinks().heap().address();
        }
    }

    /** What {@code action} does with the heap at {@code address} of {@code path}. */
    @FunctionalInterface
    private interface HeapAction<T> {
        T run(FractalHeap heap, BlockFile file) throws IOException;
    }

    private static <T> T withHeap(Path path, long address, HeapAction<T> action)
            throws IOException {
        try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
            return action.run(FractalHeap.open(file, address), file);
        }
    }

    /** A managed-object ID of {@code idLength} bytes: type 0, offset, then a 2-byte length. */
    private static byte[] managed(int idLength, long offset, int length) {
        ByteBuffer id = ByteBuffer.allocate(idLength).order(ByteOrder.LITTLE_ENDIAN);
        id.put((byte) 0);
        for (int i = 0; i < idLength - 3; i++) {
            id.put((byte) (offset >>> (8 * i)));
        }
        return id.putShort((short) length).array();
    }

    /** The heap {@code heap}'s direct blocks as (address, heap offset, size), in heap order. */
    private static List<long[]> directBlocks(FractalHeap heap) throws IOException {
        List<long[]> blocks = new ArrayList<>();
        heap.forEachBlock((address, direct, blockOffset, size) -> {
            if (direct) {
                blocks.add(new long[] {address, blockOffset, size});
            }
        });
        return blocks;
    }

    @Test
    void aRootDirectBlockIsVisitedAsTheWholeHeap() throws IOException {
        List<String> visits = withHeap(intact, orderedAttributes, (heap, file) -> {
            List<String> seen = new ArrayList<>();
            heap.forEachBlock((address, direct, blockOffset, size) ->
                    seen.add(address + " " + direct + " " + blockOffset + " " + size));
            assertEquals(0, heap.header().rootIndirectRows());
            return seen;
        });
        assertEquals(List.of("300211 true 0 1024"), visits);
    }

    /** A tiny object is the ID's own bytes: type 2, low bits the length - 1 (here 7). */
    @Test
    void aTinyObjectIsReadFromItsIdAndHasNoManagedOffset() throws IOException {
        byte[] tiny = {0x26, 1, 2, 3, 4, 5, 6, 7};
        withHeap(intact, orderedAttributes, (heap, file) -> {
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7}, heap.read(tiny));
            assertEquals(-1, heap.managedOffset(tiny));
            assertEquals(22 + 300, heap.managedOffset(managed(8, 22 + 300, 9)));
            return null;
        });
    }

    /**
     * In the 8 KiB direct block of /wide's heap (after its 21-byte prefix): 1 byte right after
     * the prefix, the largest object (4096 bytes) right after the prefix and ending at the
     * block's end read as the block's bytes; 0 bytes, 4097 bytes, and 4096 bytes one past the
     * end do not.
     */
    @Test
    void managedObjectsReadUpToTheSizeLimitAndTheBlocksEdges() throws IOException {
        withHeap(intact, wide, (heap, file) -> {
            long[] block = directBlocks(heap).stream().filter(b -> b[2] == 8192).findFirst()
                    .orElseThrow();
            long address = block[0];
            long offset = block[1];
            assertEquals(21, FractalHeapDirectBlock.prefixSize(heap.header()));
            assertArrayEquals(slice(address + 21, 1), heap.read(managed(7, offset + 21, 1)));
            assertArrayEquals(slice(address + 21, 4096),
                    heap.read(managed(7, offset + 21, 4096)));
            assertArrayEquals(slice(address + 8192 - 4096, 4096),
                    heap.read(managed(7, offset + 8192 - 4096, 4096)));
            String header = "fractal heap header at " + wide + ": managed object length";
            assertEquals(header + " expected 1..4096, found 0",
                    failure(() -> heap.read(managed(7, offset + 21, 0)), intact));
            assertEquals(header + " expected 1..4096, found 4097",
                    failure(() -> heap.read(managed(7, offset + 21, 4097)), intact));
            long past = offset + 8192 - 4095;
            assertEquals("fractal heap direct block at " + address + ": object at heap offset "
                    + past + " expected inside the block's 8192 bytes after its 21-byte"
                    + " prefix, found 4096 bytes at 4097",
                    failure(() -> heap.read(managed(7, past, 4096)), intact));
            return null;
        });
    }

    /**
     * Heap offset 0 is in row 0, whose slots libhdf5 left empty; offset 4 MiB is the first
     * past the root's 12 rows (4 x 512 bytes x (1 + 1 + 2 + ... + 1024)).
     */
    @Test
    void anOffsetInAnEmptySlotOrPastTheRootsRowsIsCorrupt() throws IOException {
        long root = withHeap(intact, wide, (heap, file) -> heap.header().rootBlockAddress());
        withHeap(intact, wide, (heap, file) -> {
            assertEquals(12, heap.header().rootIndirectRows());
            String block = "fractal heap indirect block at " + root + ": ";
            assertEquals(block + "child block address expected a block for heap offset 0,"
                    + " found the undefined address",
                    failure(() -> heap.read(managed(7, 0, 1)), intact));
            assertEquals(block + "rows expected a row holding heap offset 4194304, found 12"
                    + " rows from offset 0",
                    failure(() -> heap.read(managed(7, 4L << 20, 1)), intact));
            return null;
        });
    }

    /**
     * Objects of one direct block read one after another through a heap just opened: the
     * block and the root indirect block above it are read (and their checksums counted) once.
     */
    @Test
    void objectsOfOneBlockReadTheBlocksAboveThemOnce() throws IOException {
        Map<String, Long> counted = withHeap(intact, wide, (walked, file) -> {
            long[] block = directBlocks(walked).get(0);
            FractalHeap heap = FractalHeap.open(file, wide);
            Map<String, Long> before = file.verifiedBlocks();
            for (int i = 0; i < 3; i++) {
                heap.read(managed(7, block[1] + 21 + 10 * i, 10));
            }
            Map<String, Long> after = file.verifiedBlocks();
            return Map.of("direct", after.get("fractal heap direct block")
                            - before.get("fractal heap direct block"),
                    "indirect", after.get("fractal heap indirect block")
                            - before.get("fractal heap indirect block"));
        });
        assertEquals(Map.of("direct", 1L, "indirect", 1L), counted);
    }

    /**
     * /wide's root indirect block with the address of its first child indirect block copied
     * into a later slot of the indirect rows (checksum recomputed): the walk finds that child
     * a second time and names it, before reading it as a block at another heap offset.
     */
    @Test
    void anIndirectBlockReachedTwiceIsNamedAsSuch() throws IOException {
        byte[] damaged = bytes.clone();
        long[] child = new long[1];
        withHeap(intact, wide, (heap, file) -> {
            FractalHeapHeader header = heap.header();
            int width = header.table().width();
            int rows = header.rootIndirectRows();
            long root = header.rootBlockAddress();
            int entries = (int) (root + FractalHeapIndirectBlock.IDENTITY.prefixLength() + 8
                    + header.table().heapOffsetSize());
            ByteBuffer buffer = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
            int first = header.table().maxDirectRows() * width;
            child[0] = buffer.getLong(entries + 8 * first);
            assertNotEquals(-1L, child[0]);
            int later = rows * width - 1;
            assertEquals(-1L, buffer.getLong(entries + 8 * later));
            buffer.putLong(entries + 8 * later, child[0]);
            int checksumAt = entries + rows * width * 8;
            buffer.putInt(checksumAt, JenkinsLookup3.checksum(damaged, (int) root,
                    checksumAt - (int) root));
            return null;
        });
        Path path = dir.resolve("indirect-twice.h5");
        Files.write(path, damaged);
        assertEquals("fractal heap indirect block at " + child[0] + ": child block address"
                + " expected an address no other entry of the heap at " + wide + " uses, found "
                + child[0] + ", reached a second time (a cycle or shared block)",
                failure(() -> withHeap(path, wide, (heap, file) -> {
                    heap.forEachBlock((address, direct, blockOffset, size) -> { });
                    return null;
                }), path));
    }

    /**
     * The heap keeps the 8 direct blocks used last: objects of 8 blocks, then of the first
     * again, read each block once; a 9th block pushes the first out.
     */
    @Test
    void theEightDirectBlocksUsedLastAreKept() throws IOException {
        List<Long> reads = withHeap(intact, wide, (walked, file) -> {
            List<long[]> blocks = directBlocks(walked);
            FractalHeap heap = FractalHeap.open(file, wide);
            long before = file.verifiedBlocks().get("fractal heap direct block");
            List<Long> counts = new ArrayList<>();
            for (int i : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 0, 8, 1}) {
                heap.read(managed(7, blocks.get(i)[1] + 21, 1));
                counts.add(file.verifiedBlocks().get("fractal heap direct block") - before);
            }
            return counts;
        });
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 8L, 9L, 10L), reads);
    }

    /** Huge objects by key (/attributes' heap, one object of key 1) and unknown keys. */
    @Test
    void aHugeObjectIsFoundByItsKeyAndAnUnknownKeyIsCorrupt() throws IOException {
        BTreeV2HugeObjectRecord record = hugeRecord();
        byte[] key1 = {0x10, 1, 0, 0, 0, 0, 0, 0};
        byte[] key2 = {0x10, 2, 0, 0, 0, 0, 0, 0};
        withHeap(intact, hugeHolder, (heap, file) -> {
            assertArrayEquals(slice(record.address(), (int) record.length()), heap.read(key1));
            assertEquals("fractal heap header at " + hugeHolder + ": huge object ID expected an"
                    + " ID in the huge object B-tree, found 2",
                    failure(() -> heap.read(key2), intact));
            return null;
        });
    }

    /**
     * The huge object's record moved (leaf checksum recomputed) to end exactly at the file's
     * end: the index verifies and the object reads as the file's last bytes; one byte further,
     * it is corrupt.
     */
    @Test
    void theHugeObjectIndexAcceptsAnObjectEndingAtTheFilesEndAndNotOnePast() throws IOException {
        BTreeV2HugeObjectRecord record = hugeRecord();
        long atEnd = bytes.length - record.length();
        Path exact = withHugeObjectAt(atEnd, "huge-at-end.h5");
        withHeap(exact, hugeHolder, (heap, file) -> {
            heap.verifyHugeObjectIndex();
            assertArrayEquals(slice(atEnd, (int) record.length()),
                    heap.read(new byte[] {0x10, 1, 0, 0, 0, 0, 0, 0}));
            return null;
        });
        Path past = withHugeObjectAt(atEnd + 1, "huge-past-end.h5");
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> withHeap(past, hugeHolder, (heap, file) -> {
                    heap.verifyHugeObjectIndex();
                    return null;
                }));
        assertEquals("version 2 B-tree header at " + hugeRecordTree() + ": huge object 1"
                + " expected an object inside the file of " + bytes.length + " bytes, found"
                + " 100055 bytes at " + (atEnd + 1), describe(e));
    }

    /**
     * Verifying /attributes' dense attributes walks the huge-object index before reading the
     * huge attribute: an object one byte past the file's end is reported as the index's
     * record, not as a failed read of the object.
     */
    @Test
    void theVerifierReportsAHugeAttributePastTheEndAsItsIndexRecord() throws IOException {
        BTreeV2HugeObjectRecord record = hugeRecord();
        long past = bytes.length - record.length() + 1;
        Path path = withHugeObjectAt(past, "verified-huge-past-end.h5");
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(path));
        assertEquals("version 2 B-tree header at " + hugeRecordTree() + ": huge object 1"
                + " expected an object inside the file of " + bytes.length + " bytes, found"
                + " 100055 bytes at " + past, describe(e));
    }

    /**
     * A copy of the file whose huge-object leaf (signature, version 0, type 1, then the one
     * record: address, length, key) says the object is at {@code address}.
     */
    private static Path withHugeObjectAt(long address, String name) throws IOException {
        byte[] damaged = bytes.clone();
        ByteBuffer buffer = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
        byte[] leafStart = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN)
                .put(new byte[] {'B', 'T', 'L', 'F', 0, 1}).putLong(hugeRecord().address())
                .array();
        int leaf = DamagedField.indexOf(damaged, leafStart, 0);
        buffer.putLong(leaf + 6, address);
        int checksumAt = leaf + 6 + 24;
        buffer.putInt(checksumAt, JenkinsLookup3.checksum(damaged, leaf, checksumAt - leaf));
        Path path = dir.resolve(name);
        Files.write(path, damaged);
        return path;
    }

    /**
     * /ordered's attribute heap with its ID length changed to 17 (checksum recomputed): IDs
     * then hold a huge object's address and length themselves. 0 bytes read as nothing, 5 at
     * address 0 as the signature's start; a length of 2^31 - 64 is read only if inside the
     * file, one more is refused before; the dense storage, whose records hold 8-byte IDs,
     * refuses the heap.
     */
    @Test
    void hugeObjectsAddressedByTheirIdAreBoundedByMemoryAndTheFile() throws IOException {
        byte[] damaged = bytes.clone();
        int at = (int) orderedAttributes;
        int idLengthField = at + 5;
        ByteBuffer buffer = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(idLengthField, (short) 17);
        int checksumAt = at + FractalHeapHeader.SIZE - 4;
        buffer.putInt(checksumAt, JenkinsLookup3.checksum(damaged, at, checksumAt - at));
        Path path = dir.resolve("long-heap-ids.h5");
        Files.write(path, damaged);
        withHeap(path, orderedAttributes, (heap, file) -> {
            assertArrayEquals(new byte[0], heap.read(hugeDirect(100, 0)));
            assertArrayEquals(Arrays.copyOf(bytes, 5), heap.read(hugeDirect(0, 5)));
            int largest = Integer.MAX_VALUE - 64;
            assertEquals("huge fractal heap object at 0: address expected a"
                    + " block of " + largest + " bytes inside the file of " + bytes.length
                    + " bytes, found 0", failure(() -> heap.read(hugeDirect(0, largest)), path));
            String header = "fractal heap header at " + orderedAttributes + ": ";
            assertEquals(header + "huge object length expected an object that fits in memory,"
                    + " found " + (largest + 1L),
                    failure(() -> heap.read(hugeDirect(0, largest + 1L)), path));
            assertEquals(header + "heap ID length expected 17 (the header's), found 8",
                    failure(() -> heap.read(new byte[8]), path));
            return null;
        });
        try (Hdf5File file = Hdf5File.open(path)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.root().group("ordered").attributeNames());
            assertEquals("fractal heap header at " + orderedAttributes + ": heap ID length"
                    + " expected 8 (the index records' heap IDs), found 17", describe(e));
        }
    }

    /** A huge-object ID holding {@code address} and {@code length} (17 bytes). */
    private static byte[] hugeDirect(long address, long length) {
        return ByteBuffer.allocate(17).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0x10)
                .putLong(address).putLong(length).array();
    }

    private static BTreeV2HugeObjectRecord hugeRecord() throws IOException {
        return withHeap(intact, hugeHolder, (heap, file) -> {
            List<BTreeV2HugeObjectRecord> records = new ArrayList<>();
            BTreeV2Reader.open(file, heap.header().hugeObjectsBTreeAddress(),
                    BTreeV2RecordFormat.exactly(BTreeV2HugeObjectRecord.FORMAT))
                    .forEach((a, b) -> Long.compare(a.key(), b.key()), true, records::add);
            assertEquals(1, records.size(), records.toString());
            assertEquals(1, records.get(0).key());
            return records.get(0);
        });
    }

    private static long hugeRecordTree() throws IOException {
        return withHeap(intact, hugeHolder,
                (heap, file) -> heap.header().hugeObjectsBTreeAddress());
    }

    private static byte[] slice(long address, int length) {
        return Arrays.copyOfRange(bytes, (int) address, (int) address + length);
    }

    /** The corrupt-file error {@code action} fails with: structure, offset, field, values. */
    private static String failure(Executable action, Path path) {
        CorruptFileException e = assertThrows(CorruptFileException.class, action);
        assertEquals(path, e.file());
        return describe(e);
    }

    private static String describe(CorruptFileException e) {
        return e.structure() + " at " + e.offset() + ": " + e.field() + " expected "
                + e.expected() + ", found " + e.found();
    }
}
