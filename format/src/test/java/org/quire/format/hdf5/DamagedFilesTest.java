package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;
import org.quire.format.hdf5.layout.BTreeV2ChunkRecord;
import org.quire.format.hdf5.layout.BTreeV2Geometry;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2InternalNode;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ContinuationMessage;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.GroupInfoMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LinkInfoMessage;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Damaged and hostile files: every failure is a typed {@link FormatException} naming the
 * structure, found quickly and without unbounded allocation.
 */
class DamagedFilesTest {

    @TempDir
    static Path dir;
    private static Path intact;

    /** Signature of each checksummed block kind, and the structure name errors must carry. */
    private static final Map<String, String> SIGNED_BLOCKS = new LinkedHashMap<>();

    static {
        SIGNED_BLOCKS.put("OHDR", "object header");
        SIGNED_BLOCKS.put("OCHK", "object header continuation block");
        SIGNED_BLOCKS.put("FAHD", "fixed array header");
        SIGNED_BLOCKS.put("FADB", "fixed array data block");
        SIGNED_BLOCKS.put("EAHD", "extensible array header");
        SIGNED_BLOCKS.put("EAIB", "extensible array index block");
        SIGNED_BLOCKS.put("EASB", "extensible array super block");
        SIGNED_BLOCKS.put("EADB", "extensible array data block");
        SIGNED_BLOCKS.put("BTHD", "version 2 B-tree header");
        SIGNED_BLOCKS.put("BTIN", "version 2 B-tree internal node");
        SIGNED_BLOCKS.put("BTLF", "version 2 B-tree leaf node");
    }

    @BeforeAll
    static void writeIntactFile() throws IOException {
        intact = dir.resolve("intact.h5");
        List<InteropCorpus.Case> cases = new ArrayList<>();
        for (InteropCorpus.Case c : InteropCorpus.cases()) {
            // The deep B-trees add a hundred nodes, each a full read of the file below.
            if (c.path().startsWith("/fixed/") || c.path().startsWith("/extensible/")
                    || c.path().startsWith("/filters/")
                    || c.path().startsWith("/btree/") && !c.path().contains("/deep")) {
                cases.add(c);
            }
        }
        InteropCorpus.write(intact, List.of("/fixed", "/extensible", "/filters", "/btree",
                "/nested", "/nested/a"), cases, InteropCorpus.attributes().stream()
                .filter(a -> a.objectPath().equals("/nested/a")).toList());
    }

    /** Version 4 of the superblock does not exist yet: unsupported, naming what was found and what is read. */
    @Test
    void aSuperblockVersionAboveThreeIsUnsupportedNamingFoundAndSupported() throws IOException {
        byte[] bytes = Files.readAllBytes(intact);
        bytes[8] = 4; // the version byte follows the 8-byte signature
        Path file = copyWith("superblock-4.h5", bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.open(file).close());
        assertEquals(file, e.file());
        assertEquals("superblock", e.structure());
        assertEquals(0, e.offset());
        assertEquals("version 4", e.found());
        assertEquals("versions 0 to 3", e.supported());
        assertEquals(file + ": unsupported superblock at offset 0: found version 4; supported: versions 0 to 3",
                e.getMessage());
    }

    /**
     * Without the signature at offset 0 or after a user block the file is not an HDF5 file at all:
     * a text file, an empty file, a SION file. Said as such, not as a damaged superblock.
     */
    @Test
    void aFileWithoutTheSignatureIsNotAnHdf5FileButAnotherFile() throws IOException {
        Path text = copyWith("notes.txt", "hello, world\n".getBytes(StandardCharsets.US_ASCII));
        WrongFormatException e = assertThrows(WrongFormatException.class, () -> Hdf5File.open(text).close());
        assertEquals(text, e.file());
        assertEquals("an HDF5", e.format());
        assertEquals(text + ": not an HDF5 file: it starts with 68 65 6c 6c 6f 2c 20 77 (\"hello, w\"), and no HDF5"
                + " signature 89 48 44 46 0d 0a 1a 0a (\".HDF....\") is at offset 0, 512, 1024, 2048, ...",
                e.getMessage());
        Path empty = copyWith("empty.h5", new byte[0]);
        WrongFormatException none = assertThrows(WrongFormatException.class, () -> Hdf5File.open(empty).close());
        assertEquals(empty + ": not an HDF5 file: it is empty", none.getMessage());
    }

    private static Path copyWith(String name, byte[] bytes) throws IOException {
        Path copy = dir.resolve(name);
        Files.write(copy, bytes);
        return copy;
    }

    @Test
    void theIntactFileReads() throws IOException {
        ReadEverything.read(intact);
    }

    @Test
    void aFlippedBitInAnyMetadataBlockIsAChecksumMismatchNamingTheBlock() throws IOException {
        byte[] bytes = Files.readAllBytes(intact);
        Map<String, Integer> flipped = new LinkedHashMap<>();
        for (int at = 0; at + 4 <= bytes.length; at++) {
            String signature = new String(bytes, at, 4, StandardCharsets.ISO_8859_1);
            String structure = SIGNED_BLOCKS.get(signature);
            if (structure == null) {
                continue;
            }
            byte[] damaged = bytes.clone();
            damaged[at + 12] ^= 0x04;
            int blockStart = at;
            Path file = copyWith("flip-" + at + ".h5", damaged);
            ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                    () -> ReadEverything.read(file), structure + " at " + at);
            assertEquals(structure, e.structure(), "block at " + blockStart);
            assertTrue(e.offset() > blockStart, e.getMessage());
            assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
            flipped.merge(signature, 1, Integer::sum);
        }
        assertEquals(SIGNED_BLOCKS.keySet(), flipped.keySet(), "block kinds found: " + flipped);
    }

    @Test
    void aFlippedBitInTheSuperblockIsAChecksumMismatch() throws IOException {
        byte[] damaged = Files.readAllBytes(intact);
        damaged[30] ^= 0x01;
        Path file = copyWith("superblock.h5", damaged);
        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                () -> Hdf5File.open(file));
        assertEquals("superblock", e.structure());
        assertEquals(44, e.offset());
    }

    @Test
    void truncatedFilesFailAsCorruptAtEveryLength() throws IOException {
        byte[] bytes = Files.readAllBytes(intact);
        Truncations.assertEveryCutIsCorrupt(bytes, 200, dir, ReadEverything::read);
    }

    @Test
    void aDamagedChunkFailsOnlyTheReadsThatTouchIt() throws IOException {
        Path file = dir.resolve("chunks.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 100)
                    .chunkShape(10).filter(Filter.deflate(6)).build());
            long[] values = new long[100];
            for (int i = 0; i < 100; i++) {
                values[i] = i * 1000L;
            }
            d.write(new long[] {0}, new long[] {100}, values);
        }
        byte[] bytes = Files.readAllBytes(file);
        // The zlib header of the last chunk written (chunk 9): the last "78 9c" in the file.
        int zlib = lastIndexOf(bytes, new byte[] {0x78, (byte) 0x9c});
        bytes[zlib + 4] ^= (byte) 0xff;
        Files.write(file, bytes);
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset d = hdf5.root().dataset("d");
            assertEquals(5000L, d.readLongs(new long[] {5}, new long[] {1})[0]);
            assertEquals(89000L, d.readLongs(new long[] {80}, new long[] {10})[9]);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> d.readLongs(new long[] {85}, new long[] {10}));
            assertEquals("chunk [9]", e.structure());
        }
    }

    private static int lastIndexOf(byte[] bytes, byte[] pattern) {
        for (int i = bytes.length - pattern.length; i >= 0; i--) {
            if (bytes[i] == pattern[0] && bytes[i + 1] == pattern[1]) {
                return i;
            }
        }
        throw new AssertionError("pattern not found");
    }

    // ---- hand-built hostile files, checksums intact

    /** Writes a file whose root group links {@code name} to an object with {@code messages}. */
    private static Path forge(String fileName, String name, List<HeaderMessage> messages)
            throws IOException {
        Path file = dir.resolve(fileName);
        Files.deleteIfExists(file);
        org.quire.format.storage.Storage storage = FileStorage.open(file, OpenMode.CREATE_OR_OPEN);
        try (BlockFile blocks = new BlockFile(storage)) {
            org.quire.format.hdf5.cache.MetadataCache cache =
                    new org.quire.format.hdf5.cache.MetadataCache(storage, 1 << 20,
                            org.quire.format.storage.Durability.NONE);
            blocks.allocate(SuperblockV3.SIZE);
            WritableObjectHeader child = new WritableObjectHeader(blocks, cache, messages, 0);
            WritableObjectHeader root = new WritableObjectHeader(blocks, cache, List.of(
                    HeaderMessage.of(LinkInfoMessage.TYPE, 0, LinkInfoMessage.compact().encode()),
                    HeaderMessage.of(GroupInfoMessage.TYPE, 0, GroupInfoMessage.encodeDefault()),
                    HeaderMessage.of(LinkMessage.TYPE, 0,
                            LinkMessage.hard(name, child.address()).encode())), 0);
            cache.flush();
            blocks.write(0, new SuperblockV3(0, blocks.endOfAllocation(), root.address()).encode());
        }
        return file;
    }

    @Test
    void aLinkToAnAddressBeyondTheEndOfTheFileIsCorrupt() throws IOException {
        Path file = forge("beyond.h5", "child", List.of());
        byte[] bytes = Files.readAllBytes(file);
        // Re-point the link: rebuild the root header with the far address.
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ_WRITE))) {
            SuperblockV3 superblock = SuperblockV3.read(blocks);
            long far = 1L << 40;
            byte[] root = ObjectHeaderV2.encodeChunkZero(List.of(
                    HeaderMessage.of(LinkInfoMessage.TYPE, 0, LinkInfoMessage.compact().encode()),
                    HeaderMessage.of(GroupInfoMessage.TYPE, 0, GroupInfoMessage.encodeDefault()),
                    HeaderMessage.of(LinkMessage.TYPE, 0, LinkMessage.hard("child", far).encode())),
                    rootCapacity(bytes, superblock.rootGroupAddress()));
            blocks.write(superblock.rootGroupAddress(), root);
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> hdf5.root().get("child"));
            assertEquals("object header", e.structure());
            assertEquals(1L << 40, e.offset());
        }
    }

    /** The message area size of the chunk 0 at {@code address} (2-byte size field). */
    private static int rootCapacity(byte[] bytes, long address) {
        return (bytes[(int) address + 6] & 0xff) | (bytes[(int) address + 7] & 0xff) << 8;
    }

    @Test
    void aContinuationCycleIsCorruptNotAnEndlessLoop() throws IOException {
        Path file = dir.resolve("cycle.h5");
        Files.deleteIfExists(file);
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.CREATE_OR_OPEN))) {
            blocks.allocate(SuperblockV3.SIZE);
            int capacity = 64;
            long block = blocks.allocate(ObjectHeaderV2.continuationSize(capacity));
            long length = ObjectHeaderV2.continuationSize(capacity);
            HeaderMessage toBlock = HeaderMessage.of(ContinuationMessage.TYPE, 0,
                    new ContinuationMessage(block, length).encode());
            blocks.write(block, ObjectHeaderV2.encodeContinuation(List.of(toBlock), capacity));
            long root = blocks.allocate(ObjectHeaderV2.chunkZeroSize(capacity));
            blocks.write(root, ObjectHeaderV2.encodeChunkZero(List.of(
                    HeaderMessage.of(LinkInfoMessage.TYPE, 0, LinkInfoMessage.compact().encode()),
                    toBlock), capacity));
            blocks.write(0, new SuperblockV3(0, blocks.endOfAllocation(), root).encode());
        }
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> Hdf5File.open(file));
            assertEquals("continuation offset", e.field());
            assertTrue(e.found().contains("cycle"), e.getMessage());
        });
    }

    @Test
    void dimensionsWhoseProductOverflowsAreCorrupt() throws IOException {
        long huge = 1L << 40;
        Path file = forge("overflow.h5", "d", List.of(
                HeaderMessage.of(DataspaceMessage.TYPE, 0,
                        new DataspaceMessage(new long[] {huge, huge}, new long[] {huge, huge})
                                .encode()),
                HeaderMessage.of(DatatypeMessage.TYPE, 1, Datatypes.encode(Datatype.INT32)),
                HeaderMessage.of(DataLayoutMessage.TYPE, 0, new DataLayoutMessage(
                        new long[] {1, 1}, 4,
                        org.quire.format.hdf5.layout.ChunkIndexParameters.FixedArray.DEFAULT,
                        SuperblockV3.SIZE).encode())));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> hdf5.root().get("d"));
            assertEquals("dimension sizes", e.field());
        }
    }

    /** A single deflated chunk of 4 int32 values whose record says it is stored in {@code size}. */
    private static Path singleDeflatedChunk(String name, long size) throws IOException {
        return forge(name, "d", List.of(
                HeaderMessage.of(DataspaceMessage.TYPE, 0,
                        new DataspaceMessage(new long[] {4}, new long[] {4}).encode()),
                HeaderMessage.of(DatatypeMessage.TYPE, 1, Datatypes.encode(Datatype.INT32)),
                HeaderMessage.of(org.quire.format.hdf5.layout.FilterPipelineMessage.TYPE, 1,
                        new org.quire.format.hdf5.layout.FilterPipelineMessage(List.of(
                                new org.quire.format.hdf5.layout.FilterPipelineMessage.Entry(
                                        1, 1, new int[] {6}))).encode()),
                HeaderMessage.of(DataLayoutMessage.TYPE, 0, new DataLayoutMessage(
                        new long[] {4}, 4, new org.quire.format.hdf5.layout.ChunkIndexParameters
                        .SingleChunk(size, 0), SuperblockV3.SIZE).encode())));
    }

    /**
     * 16 bytes deflated take at most 2 * 16 + 1024 bytes: a record saying 1056 passes that check
     * and fails at the end of the file, before allocating; one byte more fails at its size.
     */
    @Test
    void aChunkSizeLargerThanTheFileFailsBeforeAllocating() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(singleDeflatedChunk("bigchunk.h5", 1056))) {
            Dataset d = hdf5.root().dataset("d");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> d.read(new long[] {0}, new long[] {4}));
            assertEquals("chunk", e.structure());
            assertEquals("address", e.field());
        }
        Path file = singleDeflatedChunk("hugechunk.h5", 1057);
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset d = hdf5.root().dataset("d");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> d.read(new long[] {0}, new long[] {4}));
            assertEquals(file + ": corrupt chunk [0] of /d at offset " + SuperblockV3.SIZE
                    + ": stored size expected at most 1056 bytes for 16 bytes filtered, found 1057",
                    e.getMessage());
        }
    }

    // ---- hostile version-2 B-trees, checksums intact

    /**
     * A file with one dataset "d" whose B-tree has depth 1: 13 x 13 one-element chunks, more
     * than the 84 records a leaf holds.
     */
    private static Path btreeFile(String name) throws IOException {
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT32, 13, 13)
                    .maxShape(InteropCorpus.U, InteropCorpus.U).chunkShape(1, 1).build());
            int[] values = new int[169];
            Arrays.setAll(values, i -> i * 3);
            d.write(new long[] {0, 0}, new long[] {13, 13}, values);
        }
        return file;
    }

    /** A change to the child pointers of a B-tree's root node at {@code rootAddress}. */
    @FunctionalInterface
    private interface RootChange {
        void apply(long rootAddress, List<BTreeV2InternalNode.ChildPointer> children);
    }

    /** Rewrites the root node of the only B-tree in {@code file}, checksum included. */
    private static void changeRoot(Path file, RootChange change) throws IOException {
        long headerAddress = indexOf(Files.readAllBytes(file), "BTHD");
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ_WRITE))) {
            BTreeV2Header<BTreeV2ChunkRecord> header = BTreeV2Header.read(blocks, headerAddress,
                    2, 4);
            assertEquals(1, header.depth());
            BTreeV2Geometry geometry = header.geometry();
            BTreeV2InternalNode<BTreeV2ChunkRecord> root = BTreeV2InternalNode.read(blocks,
                    header.rootAddress(), header.format(), geometry, 1, header.rootRecords());
            List<BTreeV2InternalNode.ChildPointer> children = new ArrayList<>(root.children());
            change.apply(header.rootAddress(), children);
            blocks.write(header.rootAddress(), new BTreeV2InternalNode<>(root.records(), children)
                    .encode(header.format(), geometry, 1));
        }
    }

    private static int indexOf(byte[] bytes, String signature) {
        for (int at = 0; at + 4 <= bytes.length; at++) {
            if (new String(bytes, at, 4, StandardCharsets.ISO_8859_1).equals(signature)) {
                return at;
            }
        }
        throw new AssertionError(signature + " not found");
    }

    private static void readDataset(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            hdf5.root().dataset("d").read(new long[] {0, 0}, new long[] {13, 13});
        }
    }

    @Test
    void aBTreeChildPointingAtItsParentIsACycleNotAHang() throws IOException {
        Path file = btreeFile("btree-cycle.h5");
        long[] rootAddress = {0};
        changeRoot(file, (root, children) -> {
            rootAddress[0] = root;
            BTreeV2InternalNode.ChildPointer first = children.get(0);
            children.set(0, new BTreeV2InternalNode.ChildPointer(root, first.records(),
                    first.totalRecords()));
        });
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> readDataset(file));
            assertEquals("child node address", e.field());
            assertEquals(rootAddress[0], e.offset());
            assertTrue(e.found().contains("cycle"), e.getMessage());
        });
    }

    @Test
    void aBTreeChildBeyondTheEndOfTheFileIsCorrupt() throws IOException {
        Path file = btreeFile("btree-beyond.h5");
        changeRoot(file, (root, children) -> {
            BTreeV2InternalNode.ChildPointer last = children.get(children.size() - 1);
            children.set(children.size() - 1, new BTreeV2InternalNode.ChildPointer(1L << 40,
                    last.records(), last.totalRecords()));
        });
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> readDataset(file));
        assertEquals("version 2 B-tree leaf node", e.structure());
        assertEquals(1L << 40, e.offset());
    }

    @Test
    void aBTreeChildClaimingMoreRecordsThanANodeHoldsFailsBeforeReadingIt() throws IOException {
        Path file = btreeFile("btree-count.h5");
        changeRoot(file, (root, children) -> {
            BTreeV2InternalNode.ChildPointer first = children.get(0);
            children.set(0, new BTreeV2InternalNode.ChildPointer(first.address(), 255, 255));
        });
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> readDataset(file));
        assertEquals("version 2 B-tree internal node", e.structure());
        assertEquals("records in child", e.field());
        assertEquals("255", e.found());
    }

    @Test
    void twoBTreePointersToOneNodeFailVerification() throws IOException {
        Path file = btreeFile("btree-shared.h5");
        changeRoot(file, (root, children) -> children.set(1, children.get(0)));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("child node address", e.field());
        assertTrue(e.found().contains("second time"), e.getMessage());
    }

    @Test
    void aBTreeHeaderWithAnImpossibleDepthFailsBeforeReadingNodes() throws IOException {
        Path file = btreeFile("btree-depth.h5");
        long headerAddress = indexOf(Files.readAllBytes(file), "BTHD");
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ_WRITE))) {
            BTreeV2Header<BTreeV2ChunkRecord> h = BTreeV2Header.read(blocks, headerAddress, 2, 4);
            blocks.write(headerAddress, new BTreeV2Header<>(h.format(), h.nodeSize(), 40,
                    h.splitPercent(), h.mergePercent(), h.rootAddress(), h.rootRecords(),
                    h.totalRecords()).encode());
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> hdf5.root().get("d"));
            assertEquals("version 2 B-tree header", e.structure());
            assertEquals("depth", e.field());
            assertEquals("40", e.found());
        }
    }

    @Test
    void implicitlyIndexedChunksBeyondTheEndOfTheFileAreCorrupt() throws IOException {
        Path file = forge("implicit.h5", "d", List.of(
                HeaderMessage.of(DataspaceMessage.TYPE, 0,
                        new DataspaceMessage(new long[] {800, 800}, new long[] {800, 800})
                                .encode()),
                HeaderMessage.of(DatatypeMessage.TYPE, 1, Datatypes.encode(Datatype.INT32)),
                HeaderMessage.of(DataLayoutMessage.TYPE, 0, new DataLayoutMessage(
                        new long[] {2, 2}, 4, new org.quire.format.hdf5.layout.ChunkIndexParameters
                        .Implicit(), SuperblockV3.SIZE).encode())));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> hdf5.root().get("d"));
            assertEquals("implicitly indexed chunks", e.structure());
            assertTrue(e.expected().startsWith("160000 chunks of 16 bytes"), e.getMessage());
        }
    }

    @Test
    void aFileStillOpenForWritingIsRefused() throws IOException {
        Path file = dir.resolve("open.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            writer.root().createGroup("g");
            writer.flush();
            // The writer's lock refuses first, naming it from its writer record.
            FileOpenForWritingException e = assertThrows(FileLockedException.class,
                    () -> Hdf5File.open(file));
            assertTrue(e.getMessage().contains("writer, pid " + ProcessHandle.current().pid()),
                    e.getMessage());
        }
        try (Hdf5File reader = Hdf5File.open(file)) {
            assertEquals(List.of("g"), reader.root().memberNames());
        }
    }
}
