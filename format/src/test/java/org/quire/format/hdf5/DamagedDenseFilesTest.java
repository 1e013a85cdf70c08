package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2InternalNode;
import org.quire.format.hdf5.layout.BTreeV2LeafNode;
import org.quire.format.hdf5.layout.BTreeV2LinkRecord;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.FractalHeapDirectBlock;
import org.quire.format.hdf5.layout.FractalHeapHeader;
import org.quire.format.hdf5.layout.FractalHeapIndirectBlock;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Damaged dense link and attribute storage in a file libhdf5 wrote (h5py's
 * {@code make_h5py_dense_fixtures.py}): flipped bits in fractal heap blocks and name index
 * B-tree nodes are checksum mismatches naming the block; blocks beyond the end of the file and
 * blocks reached twice are corrupt, found without reading or allocating what the damaged
 * fields claim.
 */
class DamagedDenseFilesTest {

    private static final Path INTACT = H5pyFixtures.committed(H5pyFixtures.DENSE, "dense.h5");

    @TempDir
    static Path dir;

    private static Path copyWith(String name, byte[] bytes) throws IOException {
        Path copy = dir.resolve(name);
        Files.write(copy, bytes);
        return copy;
    }

    /** Offsets of the first {@code limit} blocks starting with {@code signature}. */
    private static List<Integer> find(byte[] bytes, String signature, int limit) {
        List<Integer> found = new ArrayList<>();
        byte[] wanted = signature.getBytes(StandardCharsets.US_ASCII);
        for (int at = 0; at + 4 <= bytes.length && found.size() < limit; at++) {
            if (bytes[at] == wanted[0] && bytes[at + 1] == wanted[1]
                    && bytes[at + 2] == wanted[2] && bytes[at + 3] == wanted[3]) {
                found.add(at);
            }
        }
        return found;
    }

    /** Writes a checksum over {@code [from, to)} of {@code bytes} at {@code to}. */
    private static void reseal(byte[] bytes, int from, int to) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(to, JenkinsLookup3.checksum(bytes, from, to - from));
    }

    /** The address and header of the link heap of /wide, the one with indirect blocks. */
    private static FractalHeap wideHeap(Hdf5File file) throws IOException {
        return file.root().group("wide").denseLinks().heap();
    }

    @Test
    void theIntactFileReads() throws IOException {
        ReadEverything.read(INTACT);
    }

    @Test
    void aFlippedBitInAHeapBlockOrIndexNodeIsAChecksumMismatchNamingTheBlock()
            throws IOException {
        byte[] bytes = Files.readAllBytes(INTACT);
        for (Map.Entry<String, String> kind : H5pyFixtures.DENSE_BLOCKS.entrySet()) {
            List<Integer> blocks = find(bytes, kind.getKey(), 2);
            assertEquals(2, blocks.size(), kind.getKey());
            for (int at : blocks) {
                byte[] damaged = bytes.clone();
                damaged[at + 12] ^= 0x10;
                Path file = copyWith("flip-" + at + ".h5", damaged);
                ChecksumMismatchException e = Assertions.assertTimeoutPreemptively(
                        Duration.ofSeconds(20), () -> assertThrows(
                                ChecksumMismatchException.class, () -> ReadEverything.read(file),
                                kind.getValue() + " at " + at));
                assertEquals(kind.getValue(), e.structure(), "block at " + at);
                assertTrue(e.offset() > at, e.getMessage());
                assertTrue(e.getMessage().contains(file.getFileName().toString()),
                        e.getMessage());
            }
        }
    }

    @Test
    void aRootBlockBeyondTheEndOfTheFileIsCorrupt() throws IOException {
        byte[] bytes = Files.readAllBytes(INTACT);
        long heapAddress;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            heapAddress = wideHeap(file).address();
        }
        int at = (int) heapAddress;
        // The root block address is the 8 bytes before the row count and the checksum.
        int rootField = at + FractalHeapHeader.SIZE - 4 - 2 - 8;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(rootField,
                bytes.length + 4096L);
        reseal(bytes, at, at + FractalHeapHeader.SIZE - 4);
        Path file = copyWith("root-beyond-eof.h5", bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> ReadEverything.read(file));
        assertEquals(FractalHeapIndirectBlock.IDENTITY.structure(), e.structure(),
                e.getMessage());
        assertTrue(e.getMessage().contains("inside the file"), e.getMessage());
    }

    @Test
    void aHeapClaimingGigabyteDirectBlocksFailsBeforeAllocatingThem() throws IOException {
        byte[] bytes = Files.readAllBytes(INTACT);
        // The first heap is the attribute heap of /ordered: a single root direct block.
        int at = find(bytes, "FRHP", 1).get(0);
        int tableField = at + FractalHeapHeader.SIZE - 4 - 2 - 8 - 2 - 2 - 8 - 8;
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(tableField, 1L << 30).putLong(tableField + 8, 1L << 30);
        reseal(bytes, at, at + FractalHeapHeader.SIZE - 4);
        Path file = copyWith("huge-blocks.h5", bytes);
        CorruptFileException e = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(CorruptFileException.class, () -> ReadEverything.read(file)));
        assertTrue(e.getMessage().contains("1073741824"), e.getMessage());
    }

    @Test
    void aHeapBlockReachedTwiceIsCorrupt() throws IOException {
        byte[] bytes = Files.readAllBytes(INTACT);
        long rootAddress;
        int rows;
        int width;
        int maxDirectRows;
        long heapAddress;
        long entriesAt;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            FractalHeap heap = wideHeap(file);
            FractalHeapHeader header = heap.header();
            heapAddress = heap.address();
            rootAddress = header.rootBlockAddress();
            rows = header.rootIndirectRows();
            width = header.table().width();
            maxDirectRows = header.table().maxDirectRows();
            entriesAt = rootAddress + FractalHeapIndirectBlock.IDENTITY.prefixLength() + 8
                    + header.table().heapOffsetSize();
        }
        assertTrue(rows > maxDirectRows, rows + " rows");
        // The first direct block's address also in the next used slot: one block, two places.
        // (libhdf5 leaves the slots of rows too small for the first object unused.)
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < maxDirectRows * width && used.size() < 2; i++) {
            if (buffer.getLong((int) entriesAt + 8 * i) != -1L) {
                used.add(i);
            }
        }
        assertEquals(2, used.size());
        buffer.putLong((int) entriesAt + 8 * used.get(1),
                buffer.getLong((int) entriesAt + 8 * used.get(0)));
        int size = (int) (entriesAt - rootAddress) + rows * width * 8;
        reseal(bytes, (int) rootAddress, (int) rootAddress + size);
        Path file = copyWith("shared-block.h5", bytes);
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            FractalHeap heap = wideHeap(hdf5);
            assertEquals(heapAddress, heap.address());
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> heap.forEachBlock((address, direct, offset, blockSize) -> { }));
            assertTrue(e.getMessage().contains("reached a second time"), e.getMessage());
        }
        // A lookup through the second slot finds a block that says it is elsewhere.
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> ReadEverything.read(file));
        assertTrue(e.getMessage().contains("block offset"), e.getMessage());
        // The verifier walks the heap's blocks before reading the links in them.
        CorruptFileException verified = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        long shared = buffer.getLong((int) entriesAt + 8 * used.get(0));
        assertEquals(file + ": corrupt fractal heap direct block of /wide at offset " + shared
                + ": child block address expected an address no other entry of the heap at "
                + heapAddress + " uses, found " + shared + ", reached a second time (a cycle"
                + " or shared block)", verified.getMessage());
    }

    @Test
    void aNameHashThatDoesNotMatchItsNameFailsVerification() throws IOException {
        long treeAddress;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            treeAddress = file.root().group("twenty").denseLinks().nameIndex().address();
        }
        Path file = dir.resolve("wrong-hash.h5");
        Files.copy(INTACT, file);
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ_WRITE))) {
            BTreeV2Header<BTreeV2LinkRecord> header = BTreeV2Header.read(blocks, treeAddress,
                    BTreeV2RecordFormat.exactly(BTreeV2LinkRecord.NAME));
            assertEquals(0, header.depth());
            List<BTreeV2LinkRecord> records = new ArrayList<>(BTreeV2LeafNode.read(blocks,
                    header.rootAddress(), header.format(), header.geometry(),
                    header.rootRecords()).records());
            BTreeV2LinkRecord last = records.get(records.size() - 1);
            records.set(records.size() - 1, new BTreeV2LinkRecord(last.key() + 1, last.heapId()));
            blocks.write(header.rootAddress(), new BTreeV2LeafNode<>(records)
                    .encode(header.format(), header.geometry()));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group twenty = hdf5.root().group("twenty");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> twenty.denseLinks().verify());
            assertTrue(e.getMessage().contains("name hash"), e.getMessage());
        }
    }

    @Test
    void aLinkNameThatDoesNotHashToItsIndexRecordIsCorruptWhenListed() throws IOException {
        byte[] bytes = Files.readAllBytes(INTACT);
        int name = DamagedField.indexOf(bytes, "0879_".getBytes(StandardCharsets.US_ASCII), 0);
        List<long[]> blocks = new ArrayList<>();
        int checksumAt;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            FractalHeap heap = wideHeap(file);
            heap.forEachBlock((address, direct, offset, size) -> {
                if (direct) {
                    blocks.add(new long[] {address, size});
                }
            });
            checksumAt = FractalHeapDirectBlock.prefixSize(heap.header()) - 4;
        }
        long[] block = blocks.stream().filter(b -> b[0] <= name && name < b[0] + b[1])
                .findFirst().orElseThrow();
        bytes[name + 10] = 'Q';
        // The direct block's checksum covers the whole block with the checksum field zeroed.
        int at = (int) block[0];
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + checksumAt, 0);
        buffer.putInt(at + checksumAt, JenkinsLookup3.checksum(bytes, at, (int) block[1]));
        Path file = copyWith("renamed-link.h5", bytes);
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group wide = hdf5.root().group("wide");
            CorruptFileException e = assertThrows(CorruptFileException.class, wide::memberNames);
            assertEquals("name hash", e.field());
            assertTrue(e.expected().contains("0879_"), e.expected());
        }
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("name hash", e.field());
    }

    @Test
    void aNameIndexNodeReachedTwiceIsCorrupt() throws IOException {
        long treeAddress;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            treeAddress = file.root().group("wide").denseLinks().nameIndex().address();
        }
        Path file = dir.resolve("shared-node.h5");
        Files.copy(INTACT, file);
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ_WRITE))) {
            BTreeV2Header<BTreeV2LinkRecord> header = BTreeV2Header.read(blocks, treeAddress,
                    BTreeV2RecordFormat.exactly(BTreeV2LinkRecord.NAME));
            assertEquals(1, header.depth());
            BTreeV2InternalNode<BTreeV2LinkRecord> root = BTreeV2InternalNode.read(blocks,
                    header.rootAddress(), header.format(), header.geometry(), 1,
                    header.rootRecords());
            List<BTreeV2InternalNode.ChildPointer> children = new ArrayList<>(root.children());
            children.set(1, children.get(0));
            blocks.write(header.rootAddress(), new BTreeV2InternalNode<>(root.records(), children)
                    .encode(header.format(), header.geometry(), 1));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group wide = hdf5.root().group("wide");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    wide::memberNames);
            assertTrue(e.getMessage().contains("reached a second time"), e.getMessage());
        }
    }
}
