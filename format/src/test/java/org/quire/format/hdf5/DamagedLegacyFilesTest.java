package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.SuperblockV0;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableNode;

/**
 * Damaged copies of h5py's old-format file ({@code make_h5py_legacy_fixtures.py}): the old
 * format has no checksums, so signatures, versions, node capacities, levels, pointers and heap
 * offsets are what catch damage; each is a {@link CorruptFileException} naming the structure,
 * field and offset, found in bounded time.
 */
class DamagedLegacyFilesTest {

    private static final int CHUNK_KEY_SIZE = BTreeV1ChunkKey.format(1).keySize();
    private static final int GROUP_KEY_SIZE = BTreeV1Node.GROUP_KEYS.keySize();
    /** The root group's entry in legacy.h5's version-0 superblock. */
    private static final int ROOT_ENTRY = SuperblockV0.rootGroupEntryOffset(0);

    @TempDir
    static Path dir;
    private static byte[] intact;
    private static Path v108;
    /** The three-level chunk B-tree of /chunked/resizable: its root and the root's first child. */
    private static long chunkRoot;
    private static long chunkChild;
    /** /many's two-level group B-tree, its first symbol table node and its local heap. */
    private static long groupRoot;
    private static long firstSymbolTableNode;
    private static long localHeap;

    @BeforeAll
    static void readFixtures() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LEGACY);
        v108 = fixtures.file("v108.h5");
        Path legacy = fixtures.file("legacy.h5");
        intact = Files.readAllBytes(legacy);
        try (Hdf5File file = Hdf5File.open(legacy)) {
            chunkRoot = file.root().group("chunked").dataset("resizable").chunkIndex().address();
            chunkChild = BTreeV1Node.read(file.blocks(), chunkRoot, BTreeV1ChunkKey.format(1),
                    BTreeV1Ranks.DEFAULT.chunkNodeK()).children()[0];
            Group many = file.root().group("many");
            groupRoot = many.symbolTable().bTreeAddress();
            localHeap = many.symbolTable().localHeapAddress();
            BTreeV1Node<Long> root = BTreeV1Node.read(file.blocks(), groupRoot,
                    BTreeV1Node.GROUP_KEYS, BTreeV1Ranks.DEFAULT.groupInternalNodeK());
            firstSymbolTableNode = BTreeV1Node.read(file.blocks(), root.children()[0],
                    BTreeV1Node.GROUP_KEYS, BTreeV1Ranks.DEFAULT.groupInternalNodeK())
                    .children()[0];
        }
    }

    @Test
    void aFlippedSignatureIsCorruptInEveryKindOfBlock() throws IOException {
        long[] addresses = {chunkRoot, chunkChild, groupRoot, firstSymbolTableNode, localHeap};
        String[] structures = {"version 1 B-tree node", "version 1 B-tree node",
                "version 1 B-tree node", "symbol table node", "local heap"};
        for (int i = 0; i < addresses.length; i++) {
            byte[] bytes = intact.clone();
            bytes[(int) addresses[i] + 1] ^= 0x04;
            Path file = copy("signature-" + i, bytes);
            CorruptFileException e = expectCorrupt(() -> ReadEverything.read(file));
            assertFailure(e, addresses[i], structures[i], "signature");
            assertEquals(e.getMessage(), expectCorrupt(() -> Hdf5Verifier.verify(file))
                    .getMessage());
        }
    }

    @Test
    void aChunkNodeReachedTwiceIsCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        putLong(bytes, chunkRoot + BTreeV1Node.childFieldOffset(1, CHUNK_KEY_SIZE), chunkChild);
        Path file = copy("shared-chunk-node", bytes);
        CorruptFileException e = expectCorrupt(() -> Hdf5Verifier.verify(file));
        assertFailure(e, chunkChild, "version 1 B-tree node", "address");
        assertTrue(e.found().contains("second pointer from the node at " + chunkRoot),
                e.getMessage());
        // A lookup of a chunk of the second subtree reaches the first one: its keys are wrong.
        CorruptFileException read = expectCorrupt(() -> ReadEverything.read(file));
        assertFailure(read, chunkChild, "version 1 B-tree node", "keys");
        assertTrue(read.expected().contains("(keys 1 and 2 of the node at " + chunkRoot + ")"),
                read.getMessage());
    }

    @Test
    void aLeafKeyOutOfOrderFailsTheLookupAsItFailsVerification() throws IOException {
        long leaf;
        try (Hdf5File file = Hdf5File.open(copy("intact", intact))) {
            leaf = BTreeV1Node.read(file.blocks(), chunkChild, BTreeV1ChunkKey.format(1),
                    BTreeV1Ranks.DEFAULT.chunkNodeK()).children()[0];
        }
        // Key 1's chunk offset becomes key 3's: a binary search for chunk 1 or 2 would miss it
        // and read the fill value.
        long key1 = leaf + BTreeV1Node.childFieldOffset(1, CHUNK_KEY_SIZE) - CHUNK_KEY_SIZE;
        long key3 = leaf + BTreeV1Node.childFieldOffset(3, CHUNK_KEY_SIZE) - CHUNK_KEY_SIZE;
        byte[] bytes = intact.clone();
        putLong(bytes, key1 + 8, longAt(bytes, key3 + 8));
        Path file = copy("leaf-key-order", bytes);
        CorruptFileException read = expectCorrupt(() -> {
            try (Hdf5File hdf5 = Hdf5File.open(file)) {
                hdf5.root().group("chunked").dataset("resizable").read(new long[] {0},
                        new long[] {1});
            }
        });
        assertFailure(read, leaf, "version 1 B-tree node", "key 2");
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)), leaf,
                "version 1 B-tree node", "key 2");
    }

    /** Chunks of /chunked/resizable are 2 elements: key 1 of the first leaf made odd. */
    @Test
    void aLeafKeyOffTheChunkGridFailsTheLookupAsItFailsVerification() throws IOException {
        long leaf = firstLeaf();
        long key1 = keyAt(leaf, 1);
        byte[] bytes = intact.clone();
        putLong(bytes, key1 + 8, longAt(bytes, key1 + 8) + 1);
        Path file = copy("leaf-key-off-grid", bytes);
        CorruptFileException read = expectCorrupt(() -> readFirstElement(file));
        assertFailure(read, leaf, "version 1 B-tree node", "key 1");
        assertEquals("chunk offsets on chunk boundaries", read.expected());
        assertEquals("[3]", read.found());
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)), leaf,
                "version 1 B-tree node", "key 1");
    }

    /** Two leaf keys with the same offsets: a binary search would return the second's chunk. */
    @Test
    void aLeafKeyEqualToThePreviousFailsTheLookupAsItFailsVerification() throws IOException {
        long leaf = firstLeaf();
        byte[] bytes = intact.clone();
        putLong(bytes, keyAt(leaf, 1) + 8, longAt(bytes, keyAt(leaf, 0) + 8));
        Path file = copy("leaf-key-repeated", bytes);
        CorruptFileException read = expectCorrupt(() -> readFirstElement(file));
        assertFailure(read, leaf, "version 1 B-tree node", "key 1");
        assertEquals("offsets after [0]", read.expected());
        assertEquals("[0]", read.found());
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)), leaf,
                "version 1 B-tree node", "key 1");
    }

    /**
     * The last chunk of the first leaf listed again as the first of the second leaf, with the
     * keys between them moved so that each leaf lies within its parent's keys: only the order
     * across leaves, which the walk checks, catches the chunk visited twice.
     */
    @Test
    void aChunkInTwoLeavesIsCorruptWhenVisited() throws IOException {
        long first;
        long second;
        int entries;
        try (Hdf5File file = Hdf5File.open(copy("intact", intact))) {
            BTreeV1Node<BTreeV1ChunkKey> parent = chunkNode(file, chunkChild);
            first = parent.children()[0];
            second = parent.children()[1];
            entries = chunkNode(file, first).entries();
        }
        byte[] bytes = intact.clone();
        long last = longAt(bytes, keyAt(first, entries - 1) + 8);
        putLong(bytes, keyAt(chunkChild, 1) + 8, last);
        putLong(bytes, keyAt(first, entries) + 8, last);
        putLong(bytes, keyAt(second, 0) + 8, last);
        Path file = copy("chunk-in-two-leaves", bytes);
        CorruptFileException e = expectCorrupt(() -> visitChunks(file));
        assertFailure(e, second, "version 1 B-tree node", "key 0");
        assertEquals("offsets after [" + last + "]", e.expected());
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)), second,
                "version 1 B-tree node", "key 0");
    }

    /**
     * The root's key 1 lowered by one chunk: the root's first child (whose last key stays)
     * now reaches beyond its parent's keys, which the walk checks at every node it enters.
     */
    @Test
    void aChildBeyondItsParentsKeysIsCorruptWhenVisited() throws IOException {
        byte[] bytes = intact.clone();
        long key1 = keyAt(chunkRoot, 1);
        long high = longAt(bytes, key1 + 8) - 2;
        putLong(bytes, key1 + 8, high);
        Path file = copy("child-beyond-keys", bytes);
        CorruptFileException e = expectCorrupt(() -> visitChunks(file));
        assertFailure(e, chunkChild, "version 1 B-tree node", "keys");
        assertEquals("chunk offsets from [0] to [" + high + "] (keys 0 and 1 of the node at "
                + chunkRoot + ")", e.expected());
        assertEquals("[0] to [" + (high + 2) + "]", e.found());
    }

    private static BTreeV1Node<BTreeV1ChunkKey> chunkNode(Hdf5File file, long address)
            throws IOException {
        return BTreeV1Node.read(file.blocks(), address, BTreeV1ChunkKey.format(1),
                BTreeV1Ranks.DEFAULT.chunkNodeK());
    }

    private static long firstLeaf() throws IOException {
        try (Hdf5File file = Hdf5File.open(copy("intact", intact))) {
            return chunkNode(file, chunkChild).children()[0];
        }
    }

    /** Where key {@code i} of the chunk node at {@code node} starts. */
    private static long keyAt(long node, int i) {
        return node + BTreeV1Node.childFieldOffset(i, CHUNK_KEY_SIZE) - CHUNK_KEY_SIZE;
    }

    private static void readFirstElement(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            hdf5.root().group("chunked").dataset("resizable").read(new long[] {0},
                    new long[] {1});
        }
    }

    private static void visitChunks(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            hdf5.root().group("chunked").dataset("resizable").forEachStoredChunk(
                    (scaled, record) -> { });
        }
    }

    @Test
    void aNodePointingBackAtItsParentIsCorruptWhenReadAndVerified() throws IOException {
        byte[] bytes = intact.clone();
        putLong(bytes, chunkRoot + BTreeV1Node.childFieldOffset(0, CHUNK_KEY_SIZE), chunkRoot);
        Path file = copy("chunk-cycle", bytes);
        CorruptFileException read = expectCorrupt(() -> ReadEverything.read(file));
        assertFailure(read, chunkRoot + BTreeV1Node.LEVEL_OFFSET, "version 1 B-tree node",
                "node level");
        CorruptFileException verified = expectCorrupt(() -> Hdf5Verifier.verify(file));
        assertFailure(verified, chunkRoot, "version 1 B-tree node", "address");
    }

    @Test
    void aGroupNodeReachedTwiceIsCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        long first = longAt(bytes, groupRoot + BTreeV1Node.childFieldOffset(0, GROUP_KEY_SIZE));
        putLong(bytes, groupRoot + BTreeV1Node.childFieldOffset(1, GROUP_KEY_SIZE), first);
        Path file = copy("shared-group-node", bytes);
        assertFailure(expectCorrupt(() -> ReadEverything.read(file)), first,
                "version 1 B-tree node", "address");
    }

    @Test
    void aChildLevelOtherThanItsParentsLessOneIsCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        bytes[(int) chunkChild + BTreeV1Node.LEVEL_OFFSET] = 2;
        Path file = copy("child-level", bytes);
        CorruptFileException e = expectCorrupt(() -> ReadEverything.read(file));
        assertFailure(e, chunkChild + BTreeV1Node.LEVEL_OFFSET, "version 1 B-tree node",
                "node level");
        assertEquals("2", e.found());
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)),
                chunkChild + BTreeV1Node.LEVEL_OFFSET, "version 1 B-tree node", "node level");
    }

    @Test
    void moreEntriesThanANodeHoldsAreCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        putShort(bytes, chunkRoot + BTreeV1Node.ENTRIES_USED_OFFSET, 65);
        Path file = copy("tree-entries", bytes);
        CorruptFileException e = expectCorrupt(() -> ReadEverything.read(file));
        assertFailure(e, chunkRoot + BTreeV1Node.ENTRIES_USED_OFFSET, "version 1 B-tree node",
                "entries used");
        assertEquals("at most 64", e.expected());

        bytes = intact.clone();
        putShort(bytes, firstSymbolTableNode + 6, 9);
        Path snod = copy("snod-entries", bytes);
        e = expectCorrupt(() -> ReadEverything.read(snod));
        assertFailure(e, firstSymbolTableNode + 6, "symbol table node", "number of symbols");
        assertEquals("at most 8", e.expected());
    }

    @Test
    void aNameOffsetBeyondTheLocalHeapIsCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        long entry = SymbolTableNode.entryAddress(firstSymbolTableNode, 0);
        putLong(bytes, entry, 1_000_000);
        Path file = copy("heap-offset", bytes);
        CorruptFileException e = expectCorrupt(() -> ReadEverything.read(file));
        assertFailure(e, entry, "symbol table node", "link name offset");
        assertEquals("1000000", e.found());
    }

    @Test
    void hugeSizesAreRefusedBeforeAnyAllocation() throws IOException {
        byte[] bytes = intact.clone();
        putLong(bytes, localHeap + 8, 1L << 40); // data segment size
        Path heap = copy("heap-size", bytes);
        assertFailure(expectCorrupt(() -> ReadEverything.read(heap)), localHeap + 8, "local heap",
                "data segment size");

        bytes = intact.clone();
        long rootHeader = longAt(bytes, ROOT_ENTRY + SymbolTableEntry.OBJECT_HEADER_ADDRESS_OFFSET);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) rootHeader + 8, -8);
        Path header = copy("header-size", bytes);
        CorruptFileException e = expectCorrupt(() -> Hdf5File.open(header).close());
        assertFailure(e, rootHeader + 8, "version 1 object header", "object header size");
        assertEquals(Long.toString(0xfffffff8L), e.found());
    }

    @Test
    void aRootScratchPadDisagreeingWithTheRootsSymbolTableFailsVerification()
            throws IOException {
        byte[] bytes = intact.clone();
        long scratchPad = ROOT_ENTRY + SymbolTableEntry.SCRATCH_PAD_OFFSET;
        putLong(bytes, scratchPad, longAt(bytes, scratchPad) + 8);
        Path file = copy("scratch-pad", bytes);
        ReadEverything.read(file); // readers follow the object header's message, as libhdf5 does
        assertFailure(expectCorrupt(() -> Hdf5Verifier.verify(file)), scratchPad, "superblock",
                "root group symbol table entry scratch-pad");
    }

    @Test
    void aWrongObjectHeaderVersionIsCorrupt() throws IOException {
        byte[] bytes = intact.clone();
        long rootHeader = longAt(bytes, ROOT_ENTRY + SymbolTableEntry.OBJECT_HEADER_ADDRESS_OFFSET);
        bytes[(int) rootHeader] = 7;
        Path file = copy("header-version", bytes);
        assertFailure(expectCorrupt(() -> Hdf5File.open(file).close()), rootHeader,
                "version 1 object header", "version");
    }

    @Test
    void aFlippedBitInASuperblockVersion2IsAChecksumMismatch() throws IOException {
        byte[] bytes = Files.readAllBytes(v108);
        bytes[20] ^= 0x10;
        Path file = copy("superblock-2", bytes);
        assertThrows(ChecksumMismatchException.class, () -> Hdf5File.open(file).close());
        assertThrows(ChecksumMismatchException.class, () -> Hdf5Verifier.verify(file));
    }

    @Test
    void truncationIsCorruptAtEveryLength() throws IOException {
        Truncations.assertEveryCutIsCorrupt(intact, 61, dir, Hdf5Verifier::verify, ReadEverything::read);
    }

    private static CorruptFileException expectCorrupt(Executable action) {
        return Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(CorruptFileException.class, action));
    }

    private static void assertFailure(CorruptFileException e, long offset, String structure,
                                      String field) {
        assertEquals(structure, e.structure(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(e.file().getFileName().toString()), e.getMessage());
    }

    private static Path copy(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name + ".h5");
        Files.write(file, bytes);
        return file;
    }

    private static long longAt(byte[] bytes, long at) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong((int) at);
    }

    private static void putLong(byte[] bytes, long at, long value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) at, value);
    }

    private static void putShort(byte[] bytes, long at, int value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort((int) at, (short) value);
    }
}
