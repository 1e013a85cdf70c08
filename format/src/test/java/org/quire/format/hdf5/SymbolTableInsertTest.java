package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.LittleEndianWriter;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.SymbolTableNode;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@link SymbolTable#insert} on old-style groups h5py wrote, at the layout level (the file's
 * blocks and a metadata cache, as the writer uses them): Quire links names to {@code /d0} in
 * {@code /g} and h5py does the same in a copy. The two trees must agree node for node (levels,
 * keys as heap offsets, sibling links present or not, entries), the heaps byte for byte; h5py
 * lists the names in byte order and opens every one, h5debug reads every node of Quire's tree,
 * Quire's verifier passes. Only the addresses of new blocks may differ.
 */
class SymbolTableInsertTest {

    @TempDir
    Path dir;

    @Test
    void aNameGoesIntoTheOnlyNode() throws IOException {
        check("three", List.of("a1", "b22", "c333"), List.of("+b3", "+zz", "+a0"));
    }

    @Test
    void theFirstLinkOfAnEmptyGroupMakesItsFirstNode() throws IOException {
        check("empty", List.of(), List.of("+only"));
    }

    @Test
    void nineNamesSplitTheFirstNode() throws IOException {
        check("nine", List.of(), plus(OldStyleGroupFixture.names("v", 9)));
    }

    @Test
    void namesOutOfByteOrderSplitNodesInHalves() throws IOException {
        List<String> names = OldStyleGroupFixture.names("v", 60);
        Collections.shuffle(names, new Random(11));
        check("shuffled", List.of("a", "w"), plus(names));
    }

    @Test
    void thirtyThreeNodesSplitTheRootWhichStaysWhereItWas() throws IOException {
        List<String> names = OldStyleGroupFixture.names("n", 150);
        Tree tree = check("root", List.of(), plus(names));
        assertEquals(1, tree.rootLevel, "the root is one level up");
    }

    @Test
    void aNameLinkedAlreadyIsRefusedBeforeAnyChange() throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "twice", List.of("a1"),
                List.of());
        Quire quire = Quire.open(fixture.file());
        try (quire.file) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> quire.insert("a1"));
            assertEquals("\"a1\" is linked in the symbol table already", e.getMessage());
        }
    }

    private static List<String> plus(List<String> names) {
        List<String> ops = new ArrayList<>();
        for (String name : names) {
            ops.add("+" + name);
        }
        return ops;
    }

    /** Quire's side: the fixture's blocks, a cache, the group's table and /d0's address. */
    private record Quire(BlockFile file, MetadataCache cache, SymbolTableMessage table,
                         long d0) {

        static Quire open(Path path) throws IOException {
            long d0;
            SymbolTableMessage table;
            try (Hdf5File read = Hdf5File.open(path)) {
                d0 = read.root().link("d0").address();
                table = read.root().group("g").symbolTable();
            }
            FileStorage storage = FileStorage.open(path, OpenMode.READ_WRITE);
            return new Quire(new BlockFile(storage), new MetadataCache(storage, 1 << 24,
                    Durability.NONE), table, d0);
        }

        void insert(String name) throws IOException {
            try (SymbolTableBlocks blocks = new SymbolTableBlocks(file, cache,
                    BTreeV1Ranks.DEFAULT.groupLeafNodeK())) {
                SymbolTable.insert(blocks, table, BTreeV1Ranks.DEFAULT, name,
                        offset -> SymbolTableEntry.hardLink(offset, d0));
            }
        }

        /** Flushes and sets the superblock's end-of-file address (version 0: at byte 40). */
        void close() throws IOException {
            cache.flush();
            file.write(40, new LittleEndianWriter(8).putAddress(file.endOfAllocation())
                    .toByteArray());
            file.close();
        }
    }

    private Tree check(String name, List<String> base, List<String> ops) throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, name, base, ops);
        Quire quire = Quire.open(fixture.file());
        for (String op : ops) {
            quire.insert(op.substring(1));
        }
        quire.close();
        Tree ours = Tree.read(fixture.file());
        Tree libhdf5 = Tree.read(fixture.twin());
        assertEquals(libhdf5.lines, ours.lines, "the tree as libhdf5 builds it");
        assertArrayEquals(libhdf5.heapData, ours.heapData, "the heap as libhdf5 leaves it");
        List<String> expected = new ArrayList<>(base);
        for (String op : ops) {
            expected.add(op.substring(1));
        }
        Collections.sort(expected); // ASCII names: byte order
        assertEquals(expected, h5pyNames(fixture.file()));
        assertEquals(expected, h5pyNames(fixture.twin()));
        for (long[] node : ours.nodes) {
            h5debugReads(fixture.file(), node[0], ours.heap);
        }
        h5debugReads(fixture.file(), ours.heap, -1);
        VerificationReport report = Hdf5Verifier.verify(fixture.file());
        assertEquals(ours.nodes.size() - ours.internalNodes() + 1, report.checkedBlocks()
                .get("symbol table node"), "the verifier walked every node (and the root's)");
        assertTrue(report.unsupported().isEmpty(), report.unsupported().toString());
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            assertEquals(expected, file.root().group("g").memberNames(), "Quire reads them too");
        }
        return ours;
    }

    /** A group's tree as text without block addresses, its heap segment and its blocks. */
    private record Tree(List<String> lines, byte[] heapData, long heap, int rootLevel,
                        List<long[]> nodes) {

        long internalNodes() {
            return lines.stream().filter(line -> line.startsWith("level")).count();
        }

        static Tree read(Path path) throws IOException {
            SymbolTableMessage table = OldStyleGroupFixture.symbolTable(path);
            try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
                List<String> lines = new ArrayList<>();
                List<long[]> nodes = new ArrayList<>();
                BTreeV1Node<Long> root = BTreeV1Node.read(file, table.bTreeAddress(),
                        BTreeV1Node.GROUP_KEYS, BTreeV1Ranks.DEFAULT.groupInternalNodeK());
                walk(file, root, lines, nodes);
                LocalHeap heap = LocalHeap.read(file, table.localHeapAddress());
                return new Tree(lines, file.read(heap.dataAddress(), heap.dataSize(), "heap"),
                        heap.address(), root.level(), nodes);
            }
        }

        private static void walk(BlockFile file, BTreeV1Node<Long> node, List<String> lines,
                                 List<long[]> nodes) throws IOException {
            nodes.add(new long[] {node.address()});
            lines.add("level " + node.level() + " keys " + node.keys() + " left "
                    + (node.leftSibling() != -1) + " right " + (node.rightSibling() != -1));
            for (long child : node.children()) {
                if (node.level() > 0) {
                    walk(file, BTreeV1Node.read(file, child, BTreeV1Node.GROUP_KEYS,
                            BTreeV1Ranks.DEFAULT.groupInternalNodeK()), lines, nodes);
                } else {
                    StringBuilder line = new StringBuilder("  node");
                    for (SymbolTableEntry entry : SymbolTableNode.read(file, child,
                            BTreeV1Ranks.DEFAULT.groupLeafNodeK()).entries()) {
                        line.append(' ').append(entry);
                    }
                    lines.add(line.toString());
                    nodes.add(new long[] {child});
                }
            }
        }
    }

    private static List<String> h5pyNames(Path path) {
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n",
                        "import h5py, sys",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    g = f['g']",
                        "    for name in g:",
                        "        g[name]",  // opens every object
                        "        print(name)"), path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().toList();
    }

    /** h5debug reads the block at {@code address} (a B-tree node with its heap, or a heap). */
    private static void h5debugReads(Path path, long address, long heap) {
        ExternalTools.requireTool("h5debug");
        List<String> command = new ArrayList<>(List.of("h5debug", path.toString(),
                Long.toString(address)));
        if (heap >= 0) {
            command.add(Long.toString(heap));
        }
        ExternalTools.Result result = ExternalTools.run(command, 60);
        assertEquals(0, result.exitCode(), result.output());
        assertFalse(result.output().toLowerCase().contains("error"), result.output());
    }
}
