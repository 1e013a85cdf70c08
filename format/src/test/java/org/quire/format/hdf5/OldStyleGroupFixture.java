package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LittleEndianWriter;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.SymbolTableNode;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * A file h5py writes in libhdf5's default format (superblock 0, version-1 headers) with an
 * old-style group {@code /g} holding empty old-style groups of the given names ("~name": a soft
 * link to /d0), and a dataset
 * {@code /d0}; and its twin, a copy to which h5py then applied the same link changes a test
 * makes with Quire ("+name": {@code g[name] = f['d0']}, "-name": {@code del g[name]}), in one
 * session. libhdf5's twin is the oracle: its local heap, symbol table nodes and B-tree keys are
 * what Quire's changes must produce.
 */
record OldStyleGroupFixture(Path file, Path twin) {

    private static final String SCRIPT = String.join("\n",
            "import ctypes, h5py, numpy, shutil, sys",
            "path, twin, base, ops, k = sys.argv[1:6]",
            "if k:",
            "    lib = ctypes.CDLL('libhdf5_serial.so.103')",
            "    lib.H5Pset_sym_k.argtypes = [ctypes.c_int64, ctypes.c_uint, ctypes.c_uint]",
            "    fcpl = h5py.h5p.create(h5py.h5p.FILE_CREATE)",
            "    internal, leaf = map(int, k.split(','))",
            "    assert lib.H5Pset_sym_k(fcpl.id, internal, leaf) >= 0",
            "    h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl)).close()",
            "with h5py.File(path, 'r+' if k else 'w') as f:",
            "    f.create_dataset('d0', data=numpy.arange(4))",
            "    g = f.create_group('g')",
            "    for name in filter(None, base.split(',')):",
            "        if name.startswith('~'):",
            "            g[name[1:]] = h5py.SoftLink('/d0')",
            "        else:",
            "            g.create_group(name)",
            "shutil.copyfile(path, twin)",
            "with h5py.File(twin, 'r+') as f:",
            "    g = f['g']",
            "    for op in filter(None, ops.split(',')):",
            "        if op[0] == '+':",
            "            g[op[1:]] = f['d0']",
            "        else:",
            "            del g[op[1:]]");

    /** Writes the fixture in {@code dir}: {@code base} names in /g, {@code ops} on the twin. */
    static OldStyleGroupFixture write(Path dir, String name, List<String> base,
                                      List<String> ops) {
        return write(dir, name, base, ops, null);
    }

    /**
     * {@link #write(Path, String, List, List)} with the superblock's group internal and leaf
     * node K set to {@code ranks}' (libhdf5's H5Pset_sym_k through ctypes), or the defaults
     * for null.
     */
    static OldStyleGroupFixture write(Path dir, String name, List<String> base,
                                      List<String> ops, BTreeV1Ranks ranks) {
        ExternalTools.requireH5py();
        Path file = dir.resolve(name + ".h5");
        Path twin = dir.resolve(name + "-h5py.h5");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", SCRIPT, file.toString(), twin.toString(), String.join(",", base),
                String.join(",", ops), ranks == null ? "" : ranks.groupInternalNodeK() + ","
                        + ranks.groupLeafNodeK()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return new OldStyleGroupFixture(file, twin);
    }

    /** {@code count} names "{@code prefix}0", "{@code prefix}1", ... */
    static List<String> names(String prefix, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(prefix + i);
        }
        return names;
    }

    /** The K values of the file at {@code path}, from its superblock. */
    static BTreeV1Ranks ranks(Path path) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.ranks();
        }
    }

    /** The symbol table message of {@code /g} in {@code path}, read by Quire. */
    static SymbolTableMessage symbolTable(Path path) throws IOException {
        return symbolTable(path, "g");
    }

    /** The symbol table message of the root's member {@code group}, read by Quire. */
    static SymbolTableMessage symbolTable(Path path, String group) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.root().group(group).symbolTable();
        }
    }

    /**
     * Writes the fixture {@code name} in {@code dir}, applies {@code ops} with Quire at the
     * layout level and checks the result against libhdf5's twin, h5py, h5debug and the
     * verifier; returns Quire's tree.
     */
    static Tree check(Path dir, String name, List<String> base, List<String> ops)
            throws IOException {
        return check(dir, name, base, ops, null);
    }

    /** {@link #check(Path, String, List, List)} with the K values of {@code ranks}. */
    static Tree check(Path dir, String name, List<String> base, List<String> ops,
                      BTreeV1Ranks ranks) throws IOException {
        OldStyleGroupFixture fixture = write(dir, name, base, ops, ranks);
        LayoutWriter quire = LayoutWriter.open(fixture.file());
        for (String op : ops) {
            if (op.charAt(0) == '+') {
                quire.insert(op.substring(1));
            } else {
                quire.remove(op.substring(1));
            }
        }
        quire.close();
        Tree ours = Tree.read(fixture.file());
        Tree libhdf5 = Tree.read(fixture.twin());
        assertEquals(libhdf5.lines, ours.lines, "the tree as libhdf5 builds it");
        assertEquals(libhdf5.heap, ours.heap, "the heap as libhdf5 leaves it");
        List<String> expected = new ArrayList<>();
        for (String link : base) {
            expected.add(link.startsWith("~") ? link.substring(1) : link);
        }
        for (String op : ops) {
            if (op.charAt(0) == '+') {
                expected.add(op.substring(1));
            } else {
                expected.remove(op.substring(1));
            }
        }
        Collections.sort(expected); // ASCII names: byte order
        assertEquals(expected, h5pyNames(fixture.file()));
        assertEquals(expected, h5pyNames(fixture.twin()));
        for (long node : ours.nodes) {
            h5debugReads(fixture.file(), node, ours.heapAddress);
        }
        h5debugReads(fixture.file(), ours.heapAddress, -1);
        VerificationReport report = Hdf5Verifier.verify(fixture.file());
        assertEquals(ours.nodes.size() - ours.internalNodes() + 1, report.checkedBlocks()
                .get("symbol table node"), "the verifier walked every node (and the root's)");
        assertTrue(report.unsupported().isEmpty(), report.unsupported().toString());
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            assertEquals(expected, file.root().group("g").memberNames(), "Quire reads them too");
        }
        return ours;
    }

    /**
     * A group's tree as text without block addresses (levels, keys, sibling links present or
     * not, entries with their names; every symbol table node encodes to its bytes; every
     * sibling link points at the node next to it on its level), its heap's size and free list (offset+size, in list
     * order), and the addresses of its heap and nodes. Bytes of a heap outside its strings and
     * free block headers are not compared: libhdf5 writes the free block headers into the
     * segment only when its cache writes the heap, Quire at each change, so freed and padding
     * bytes may hold other leftovers.
     */
    record Tree(List<String> lines, List<String> heap, byte[] heapData, long heapAddress,
                int rootLevel, List<Long> nodes) {

        /** The string at {@code offset} of the heap segment. */
        String name(long offset) {
            int end = (int) offset;
            while (heapData[end] != 0) {
                end++;
            }
            return new String(heapData, (int) offset, end - (int) offset,
                    StandardCharsets.UTF_8);
        }

        long internalNodes() {
            return lines.stream().filter(line -> line.startsWith("level")).count();
        }

        static Tree read(Path path) throws IOException {
            return read(path, "g");
        }

        /** The tree of the root's member {@code group}. */
        static Tree read(Path path, String group) throws IOException {
            SymbolTableMessage table = OldStyleGroupFixture.symbolTable(path, group);
            BTreeV1Ranks ranks = OldStyleGroupFixture.ranks(path);
            try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
                byte[] header = LocalHeap.readHeader(file, table.localHeapAddress());
                byte[] data = file.read(LocalHeap.dataAddress(header),
                        LocalHeap.dataSize(header), "heap");
                List<String> heap = new ArrayList<>(List.of("size " + data.length));
                ByteBuffer bytes = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
                for (long free = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN)
                        .getLong(16); free != 1; free = bytes.getLong((int) free)) {
                    heap.add(free + "+" + bytes.getLong((int) free + 8));
                }
                BTreeV1Node<Long> root = BTreeV1Node.read(file, table.bTreeAddress(),
                        BTreeV1Node.GROUP_KEYS, ranks.groupInternalNodeK());
                Tree tree = new Tree(new ArrayList<>(), heap, data, table.localHeapAddress(),
                        root.level(), new ArrayList<>());
                Map<Integer, List<BTreeV1Node<Long>>> levels = new TreeMap<>();
                tree.walk(file, root, ranks, levels);
                for (List<BTreeV1Node<Long>> level : levels.values()) {
                    for (int i = 0; i < level.size(); i++) {
                        BTreeV1Node<Long> node = level.get(i);
                        assertEquals(i == 0 ? -1 : level.get(i - 1).address(),
                                node.leftSibling(), "left sibling of " + node.address());
                        assertEquals(i + 1 == level.size() ? -1 : level.get(i + 1).address(),
                                node.rightSibling(), "right sibling of " + node.address());
                    }
                }
                return tree;
            }
        }

        /** Depth first; {@code levels} gets each level's nodes left to right. */
        private void walk(BlockFile file, BTreeV1Node<Long> node, BTreeV1Ranks ranks,
                          Map<Integer, List<BTreeV1Node<Long>>> levels) throws IOException {
            nodes.add(node.address());
            levels.computeIfAbsent(node.level(), level -> new ArrayList<>()).add(node);
            lines.add("level " + node.level() + " keys " + node.keys() + " left "
                    + (node.leftSibling() != -1) + " right " + (node.rightSibling() != -1));
            for (long child : node.children()) {
                if (node.level() > 0) {
                    walk(file, BTreeV1Node.read(file, child, BTreeV1Node.GROUP_KEYS,
                            ranks.groupInternalNodeK()), ranks, levels);
                } else {
                    StringBuilder line = new StringBuilder("  node");
                    SymbolTableNode read = SymbolTableNode.read(file, child,
                            ranks.groupLeafNodeK());
                    assertArrayEquals(file.read(child, SymbolTableNode.size(
                            ranks.groupLeafNodeK()), "node"), read.encode(),
                            "encode(read(node)) == node at " + child);
                    for (SymbolTableEntry entry : read.entries()) {
                        line.append(' ').append(name(entry.linkNameOffset())).append('@')
                                .append(entry.linkNameOffset()).append(':')
                                .append(entry.objectHeaderAddress()).append('/')
                                .append(entry.cacheType()).append('/')
                                .append(entry.cachedBTreeAddress()).append('/')
                                .append(entry.cachedHeapAddress()).append('/')
                                .append(entry.softLinkValueOffset());
                    }
                    lines.add(line.toString());
                    nodes.add(child);
                }
            }
        }
    }

    static List<String> h5pyNames(Path path) {
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

    /**
     * Quire's side at the layout level: the fixture's blocks, a cache, the group's table and
     * /d0's address.
     */
    record LayoutWriter(BlockFile file, MetadataCache cache, SymbolTableMessage table,
                        long d0, BTreeV1Ranks ranks) {

        static LayoutWriter open(Path path) throws IOException {
            long d0;
            SymbolTableMessage table;
            BTreeV1Ranks ranks;
            try (Hdf5File read = Hdf5File.open(path)) {
                d0 = read.root().link("d0").address();
                table = read.root().group("g").symbolTable();
                ranks = read.ranks();
            }
            FileStorage storage = FileStorage.open(path, OpenMode.READ_WRITE);
            return new LayoutWriter(new BlockFile(storage), new MetadataCache(storage, 1 << 24,
                    Durability.NONE), table, d0, ranks);
        }

        void insert(String name) throws IOException {
            try (SymbolTableBlocks blocks = new SymbolTableBlocks(file, cache,
                    ranks.groupLeafNodeK())) {
                SymbolTable.insert(blocks, table, ranks, name,
                        offset -> SymbolTableEntry.hardLink(offset, d0));
            }
        }

        void remove(String name) throws IOException {
            try (SymbolTableBlocks blocks = new SymbolTableBlocks(file, cache,
                    ranks.groupLeafNodeK())) {
                SymbolTable.remove(blocks, table, ranks, name, "/g");
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

    /** h5debug reads the block at {@code address} (a B-tree node with its heap, or a heap). */
    static void h5debugReads(Path path, long address, long heap) {
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
