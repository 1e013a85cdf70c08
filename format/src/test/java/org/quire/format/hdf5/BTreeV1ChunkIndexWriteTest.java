package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.chunk.BTreeV1Indexes;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * Quire's version-1 B-tree chunk insertion against libhdf5's own: h5py (libhdf5 1.10.8, default
 * format) writes a reference file chunk by chunk through {@code write_direct_chunk} (each chunk
 * inserted into the tree at once) and a base file holding only the first chunk; Quire inserts
 * the other chunks, in the same order and with the same bytes, into the base file's tree. Then
 * the two trees must be the same, node for node (levels, keys with sizes, filter masks and the
 * right keys libhdf5 writes, children, sibling links; addresses compared by position in the
 * tree), the root where it was, h5py must read the same values from both, {@code h5debug} must
 * dump every node and {@link Hdf5Verifier} pass. Every node libhdf5 or Quire wrote encodes back
 * to its bytes. The nodes go through a metadata cache of 64 KiB, so they are evicted (written
 * early) and read back while the tree grows.
 */
@StartsOutsideProgram
class BTreeV1ChunkIndexWriteTest {

    private static final int ELEMENT_SIZE = 4;

    @TempDir
    Path dir;

    @BeforeAll
    static void oracles() {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5debug");
    }

    /** Chunks appended in order fill each node to 57 of 64 before it splits (ratio 0.9). */
    @Test
    void appendedChunksFillNodesAsLibhdf5Does() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 3700; i++) {
            order.add(Integer.toString(i));
        }
        Path base = buildBoth("appended", 0, "14800", "4", "-", order);
        try (Hdf5File file = Hdf5File.open(base)) {
            Tree tree = tree(file);
            BTreeV1Node<BTreeV1ChunkKey> root = tree.node(tree.root);
            assertEquals(2, root.level(), "3,700 chunks in nodes of 64: three levels");
            List<Integer> leaves = new ArrayList<>();
            for (long child : root.children()) {
                for (long leaf : tree.node(child).children()) {
                    leaves.add(tree.node(leaf).entries());
                }
            }
            assertEquals(65, leaves.size());
            assertEquals(Collections.nCopies(64, 57), leaves.subList(0, 64));
            assertEquals(3700 - 64 * 57, leaves.get(64));
        }
    }

    /**
     * Nodes of 4 children (istore K 2, superblock 1) and a 2-D grid in a shuffled order: left,
     * middle and right splits, chunks before the first key and between keys, many levels.
     */
    @Test
    void smallNodesTakeChunksInAnyOrder() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 9; j++) {
                order.add(i + "," + j);
            }
        }
        Collections.shuffle(order, new Random(7));
        order.remove("0,0");
        order.add(order.size() / 2, "0,0"); // the smallest chunk arrives late: a new first key
        Path base = buildBoth("shuffled", 2, "24x27", "2x3", "-", order);
        try (Hdf5File file = Hdf5File.open(base)) {
            Tree tree = tree(file);
            assertEquals(4, tree.node(tree.root).level(), "five levels, as libhdf5's tree");
        }
    }

    /**
     * Filtered chunks rewritten at other sizes (versioned-hdf5's hash table each commit): the
     * key's size changes in place, in the parents too where the chunk is a node's first.
     */
    @Test
    void rewrittenChunksReplaceTheirKeys() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            order.add(Integer.toString(i));
        }
        Collections.shuffle(order, new Random(11));
        for (int i = 0; i < 60; i += 4) {
            order.add(i + ",r");
        }
        buildBoth("rewritten", 2, "240", "4", "gzip", order);
    }

    /**
     * Group (type 0) and chunk nodes libhdf5 wrote with default and other K values (h5py's
     * legacy fixtures: /many's two-level group tree, /chunked/resizable's three-level chunk
     * tree) encode back to their bytes.
     */
    @Test
    void libhdf5NodesEncodeToTheirBytes() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LEGACY);
        for (String name : List.of("legacy.h5", "ranks.h5")) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                int groupK = file.ranks().groupInternalNodeK();
                int nodes = nodesBreadthFirst(file.blocks(), BTreeV1Node.GROUP_KEYS, groupK,
                        file.root().group("many").symbolTable().bTreeAddress()).size();
                assertTrue(nodes > 2, name + ": " + nodes + " group nodes");
                Dataset resizable = file.root().group("chunked").dataset("resizable");
                nodes = nodesBreadthFirst(file.blocks(), BTreeV1ChunkKey.format(1),
                        file.ranks().chunkNodeK(), resizable.chunkIndex().address()).size();
                assertTrue(nodes > 2, name + ": " + nodes + " chunk nodes");
            }
        }
    }

    /**
     * Every node from {@code root} down, breadth first, each checked to encode back to its
     * bytes in the file.
     */
    private static <K> List<BTreeV1Node<K>> nodesBreadthFirst(BlockFile blocks,
            BTreeV1Node.KeyFormat<K> format, int k, long root) throws IOException {
        List<BTreeV1Node<K>> nodes = new ArrayList<>();
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(root));
        while (!queue.isEmpty()) {
            BTreeV1Node<K> node = BTreeV1Node.read(blocks, queue.poll(), format, k);
            assertArrayEquals(blocks.read(node.address(), BTreeV1Node.size(k, format.keySize()),
                    "node"), node.encode(format, k), "node at " + node.address());
            nodes.add(node);
            if (node.level() > 0) {
                for (long child : node.children()) {
                    queue.add(child);
                }
            }
        }
        return nodes;
    }

    /**
     * A chunk stored again at its size with another filter mask gets the new mask in its key.
     * libhdf5 1.10.8 keeps the old key when the size is unchanged (h5py's {@code
     * write_direct_chunk} with {@code filter_mask=1} over a chunk of the same size: {@code
     * get_chunk_info} still says 0), so the chunk would be decoded through a filter it skipped;
     * Quire records what it was given.
     */
    @Test
    void aChunkStoredAgainAtItsSizeGetsItsNewFilterMask() throws IOException {
        List<String> order = List.of("0", "1");
        Path reference = dir.resolve("mask-libhdf5.h5");
        Path base = dir.resolve("mask-quire.h5");
        Path orderFile = dir.resolve("mask.order");
        Files.writeString(orderFile, String.join("\n", order));
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                ExternalTools.resource("btree_v1_chunks.py", dir).toString(), "write",
                reference.toString(), base.toString(), "0", "8", "4", "gzip",
                orderFile.toString(), dir.resolve("mask.chunks").toString()), 300);
        assertEquals(0, made.exitCode(), made.output());
        ChunkRecord first;
        long root;
        try (Hdf5File file = Hdf5File.open(reference)) {
            ChunkIndex index = file.root().dataset("x").chunkIndex();
            first = index.get(new long[] {0});
            root = index.address();
        }
        ChunkRecord masked = new ChunkRecord(first.address(), first.storedSize(), 1);
        try (Storage storage = FileStorage.open(reference, OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, root, new long[] {4},
                    ELEMENT_SIZE, 32);
            index.put(new long[] {0}, masked);
            assertEquals(masked, index.get(new long[] {0}));
            cache.flush();
        }
        try (Hdf5File file = Hdf5File.open(reference)) {
            assertEquals(masked, file.root().dataset("x").chunkIndex().get(new long[] {0}));
        }
    }

    /** libhdf5 leaves a root of no child when every chunk is removed: Quire starts it again. */
    @Test
    void aTreeEmptiedByLibhdf5TakesChunksAgain() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            order.add(Integer.toString((i * 7) % 40));
        }
        buildBoth("emptied", 2, "160", "4", "emptied", order);
    }

    @Test
    void aReadOnlyIndexRefusesToWrite() throws IOException {
        List<String> order = List.of("0");
        Path base = buildBoth("readonly", 0, "8", "4", "-", order);
        try (Hdf5File file = Hdf5File.open(base)) {
            ChunkIndex index = file.root().dataset("x").chunkIndex();
            assertThrows(UnsupportedOperationException.class,
                    () -> index.put(new long[] {1}, new ChunkRecord(4096, 16, 0)));
        }
    }

    @Test
    void aTreeNeverAllocatedIsRefused() throws IOException {
        UnsupportedFormatException e = refusedPut(Addresses.UNDEFINED, false, 16);
        assertEquals("chunk index (writing)", e.structure());
        assertTrue(e.found().contains("never allocated"), e.found());
    }

    /** Nodes change in place without checksums: no writing while SWMR readers follow. */
    @Test
    void aTreeIsNotWrittenUnderSwmrReaders() throws IOException {
        UnsupportedFormatException e = refusedPut(0, true, 16);
        assertEquals("chunk index (writing)", e.structure());
        assertTrue(e.found().contains("SWMR readers"), e.found());
    }

    /** A key records a chunk's size in 32 bits, and a stored chunk has bytes. */
    @Test
    void chunkSizesAKeyCannotHoldAreRefused() throws IOException {
        for (long size : new long[] {0, 1L << 32}) {
            UnsupportedFormatException e = refusedPut(0, false, size);
            assertEquals(dir.resolve("empty.h5"), e.file());
            assertEquals("chunk index (writing)", e.structure());
            assertEquals(0, e.offset());
            assertEquals("a chunk of " + size + " bytes at [0]", e.found());
            assertTrue(e.getMessage().endsWith("supported: chunks of 1 to 2^32-1 bytes (a "
                    + "version-1 B-tree key's 32-bit size)"), e.getMessage());
        }
    }

    /**
     * What a put of a chunk of {@code size} bytes into the tree at {@code root} of an empty
     * file throws.
     */
    private UnsupportedFormatException refusedPut(long root, boolean followed, long size)
            throws IOException {
        Path path = dir.resolve("empty.h5");
        Files.write(path, new byte[64]);
        try (Storage storage = FileStorage.open(path, OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            blocks.followedByReaders(followed);
            ChunkIndex index = BTreeV1Indexes.writable(blocks,
                    new MetadataCache(storage, 1 << 20, Durability.NONE), root,
                    new long[] {4}, ELEMENT_SIZE, 32);
            return assertThrows(UnsupportedFormatException.class,
                    () -> index.put(new long[] {0}, new ChunkRecord(0, size, 0)));
        }
    }

    /** A dataset's version-1 B-tree as Quire reads it (every node read from the file). */
    private record Tree(BlockFile blocks, long root, int rank, int k) {
        BTreeV1Node<BTreeV1ChunkKey> node(long address) throws IOException {
            return BTreeV1Node.read(blocks, address, BTreeV1ChunkKey.format(rank), k);
        }

        List<BTreeV1Node<BTreeV1ChunkKey>> nodes() throws IOException {
            return nodesBreadthFirst(blocks, BTreeV1ChunkKey.format(rank), k, root);
        }
    }

    private static Tree tree(Hdf5File file) throws IOException {
        Dataset x = file.root().dataset("x");
        return new Tree(file.blocks(), x.chunkIndex().address(), x.chunkShape().length,
                file.ranks().chunkNodeK());
    }

    /**
     * Has h5py write the reference and base files, Quire insert every chunk the base lacks, and
     * checks the two trees and files as the class comment says; returns the base.
     */
    private Path buildBoth(String name, int istoreK, String shape, String chunk, String option,
                           List<String> order) throws IOException {
        Path script = ExternalTools.resource("btree_v1_chunks.py", dir);
        Path reference = dir.resolve(name + "-libhdf5.h5");
        Path base = dir.resolve(name + "-quire.h5");
        Path orderFile = dir.resolve(name + ".order");
        Path chunks = dir.resolve(name + ".chunks");
        Files.writeString(orderFile, String.join("\n", order));
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), "write", reference.toString(), base.toString(),
                Integer.toString(istoreK), shape, chunk, option, orderFile.toString(),
                chunks.toString()), 300);
        assertEquals(0, made.exitCode(), made.output());

        long rootBefore;
        long[] chunkShape;
        int k;
        try (Hdf5File file = Hdf5File.open(base)) {
            Tree tree = tree(file);
            rootBefore = tree.root();
            k = tree.k();
            chunkShape = file.root().dataset("x").chunkShape();
        }
        List<String> lines = Files.readAllLines(chunks);
        insertWithQuire(base, rootBefore, chunkShape, k,
                lines.subList(option.equals("emptied") ? 0 : 1, lines.size()));

        String expected;
        try (Hdf5File file = Hdf5File.open(reference)) {
            expected = describe(tree(file));
        }
        try (Hdf5File file = Hdf5File.open(base)) {
            Tree tree = tree(file);
            assertEquals(rootBefore, tree.root(), "the root stays where the layout points");
            assertEquals(expected, describe(tree));
            dumpEveryNode(base, tree, chunkShape);
        }
        ExternalTools.Result same = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), "compare", reference.toString(), base.toString()), 120);
        assertEquals("same", same.stdout().strip(), same.output());
        Hdf5Verifier.verify(base);
        return base;
    }

    /**
     * Writes every chunk of {@code lines} at the end of the file and inserts it;
     * flushes and sets the superblock's end-of-file address (superblock 0 or 1: no checksum).
     */
    private static void insertWithQuire(Path path, long root, long[] chunkShape, int k,
                                        List<String> lines) throws IOException {
        try (Storage storage = FileStorage.open(path, OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 64 << 10, Durability.NONE);
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, root, chunkShape,
                    ELEMENT_SIZE, k);
            for (String line : lines) {
                String[] parts = line.split(" ");
                long[] scaled = Arrays.stream(parts[0].split(",")).mapToLong(Long::parseLong)
                        .toArray();
                byte[] bytes = HexFormat.of().parseHex(parts[1]);
                long address = blocks.allocate(bytes.length);
                blocks.write(address, bytes);
                index.put(scaled, new ChunkRecord(address, bytes.length, 0));
                assertEquals(new ChunkRecord(address, bytes.length, 0), index.get(scaled));
            }
            cache.flush();
            byte[] superblockVersion = blocks.read(8, 1, "superblock");
            ByteBuffer eof = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(0, blocks.endOfAllocation());
            blocks.write(superblockVersion[0] == 0 ? 40 : 44, eof);
        }
    }

    /**
     * The tree breadth first, one line per node: level, sibling links and children as node
     * numbers in that order (not addresses), every key in full. Checks on the way that each
     * node encodes back to its bytes in the file.
     */
    private static String describe(Tree tree) throws IOException {
        Map<Long, BTreeV1Node<BTreeV1ChunkKey>> nodes = new LinkedHashMap<>();
        for (BTreeV1Node<BTreeV1ChunkKey> node : tree.nodes()) {
            nodes.put(node.address(), node);
        }
        List<Long> numbers = new ArrayList<>(nodes.keySet());
        StringBuilder text = new StringBuilder();
        for (BTreeV1Node<BTreeV1ChunkKey> node : nodes.values()) {
            text.append("level ").append(node.level())
                    .append(" left ").append(number(numbers, node.leftSibling()))
                    .append(" right ").append(number(numbers, node.rightSibling()))
                    .append(" keys");
            for (BTreeV1ChunkKey key : node.keys()) {
                text.append(" (").append(key.chunkSize()).append(' ').append(key.filterMask())
                        .append(' ').append(Arrays.toString(key.offsets())).append(' ')
                        .append(key.elementOffset()).append(')');
            }
            if (node.level() > 0) {
                text.append(" children");
                for (long child : node.children()) {
                    text.append(' ').append(number(numbers, child));
                }
            }
            text.append('\n');
        }
        return text.toString();
    }

    private static String number(List<Long> numbers, long address) {
        return !Addresses.isDefined(address) ? "-"
                : numbers.contains(address) ? Integer.toString(numbers.indexOf(address))
                : "outside the tree: " + address;
    }

    /** {@code h5debug} dumps each node with its level and child count. */
    private static void dumpEveryNode(Path path, Tree tree, long[] chunkShape)
            throws IOException {
        for (BTreeV1Node<BTreeV1ChunkKey> node : tree.nodes()) {
            List<String> command = new ArrayList<>(List.of("h5debug", path.toString(),
                    Long.toString(node.address()), Integer.toString(chunkShape.length + 1)));
            for (long size : chunkShape) {
                command.add(Long.toString(size));
            }
            command.add(Integer.toString(ELEMENT_SIZE));
            ExternalTools.Result dump = ExternalTools.run(command, 60);
            assertEquals(0, dump.exitCode(), dump.output());
            assertTrue(dump.stdout().matches("(?s).*Level:\\s+" + node.level() + "\n.*"),
                    dump.output());
            assertTrue(dump.stdout().matches("(?s).*Number of children \\(max\\):\\s+"
                    + node.entries() + " \\(" + 2 * tree.k() + "\\).*"), dump.output());
        }
    }
}
