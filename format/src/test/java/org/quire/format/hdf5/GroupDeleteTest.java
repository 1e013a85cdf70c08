package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * {@link Group#delete}: links deleted from groups Quire wrote and from compact groups h5py wrote
 * (hard and soft links, datasets and whole subtrees) are gone for Quire after reopening, for
 * h5py and for h5dump; the rest reads as before, a name can be used again, and a group h5py
 * stores densely moves its links into its header first.
 */
class GroupDeleteTest {

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void deletedMembersOfAQuireFileAreGoneForQuireH5pyAndH5dump() throws IOException {
        Path path = dir.resolve("deleted.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group g = file.root().createGroup("g");
            g.createDataset("keep", Datatype.INT32, new long[] {3},
                    ElementCodec.encode(Datatype.INT32, new int[] {1, 2, 3}));
            Dataset gone = g.createDataset("gone", DatasetSpec.builder(Datatype.INT64, 8)
                    .chunkShape(4).build());
            gone.write(new long[] {0}, new long[] {8}, new long[8]);
            file.root().createGroup("tree").createGroup("leaf").createStringDataset("s",
                    new long[] {1}, List.of("x"));
            g.delete("gone");
            file.root().delete("tree");
            assertEquals(List.of("keep"), g.memberNames());
            assertFalse(file.root().contains("tree"));
            assertThrows(NoSuchElementException.class, () -> g.delete("gone"));
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            assertEquals(List.of("g"), file.root().memberNames());
            Group g = file.root().group("g");
            assertEquals(List.of("keep"), g.memberNames());
            assertThrows(NoSuchElementException.class, () -> g.get("gone"));
            // The name is free again.
            g.createDataset("gone", Datatype.INT64, new long[] {2},
                    ElementCodec.encode(Datatype.INT64, new long[] {5, 6}));
        }
        Hdf5Verifier.verify(path);
        assertEquals(List.of("/g/gone|[5, 6]", "/g/keep|[1, 2, 3]", "/g|gone,keep", "/|g"),
                h5pyTree(path));
        h5dumpSucceeds(path);
    }

    @Test
    @StartsOutsideProgram
    void membersOfACompactGroupH5pyWroteAreDeleted() throws IOException {
        Path path = dir.resolve("h5py.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    g = f.create_group('g')",
                "    g['a'] = np.arange(4)",
                "    g['b'] = np.arange(3)",
                "    g['soft'] = h5py.SoftLink('/g/a')",
                "    g['ext'] = h5py.ExternalLink('elsewhere.h5', '/x')",
                "    g.create_group('sub').create_dataset('c', data=[1.5])");
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            g.delete("b");
            g.delete("soft");
            g.delete("ext");
            g.delete("sub");
            assertEquals(List.of("a"), g.memberNames());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {0, 1, 2, 3}, file.root().group("g").dataset("a")
                    .readLongs(new long[] {0}, new long[] {4}));
        }
        assertEquals(List.of("/g/a|[0, 1, 2, 3]", "/g|a", "/|g"), h5pyTree(path));
        h5dumpSucceeds(path);
    }

    /**
     * A dense group shrinking below its minimum for dense storage moves its links into its
     * header, soft links included, and takes new links from Quire and h5py then (h5py's default
     * minimum is 6: h5py left the group 6 links of 12, still dense).
     */
    @Test
    @StartsOutsideProgram
    void aDenseGroupShrinkingBelowItsMinimumMovesItsLinksIntoItsHeader() throws IOException {
        Path path = dir.resolve("dense.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    g = f.create_group('g')",
                "    for i in range(10):",
                "        g['d%02d' % i] = np.arange(2) + i",
                "    g['soft'] = h5py.SoftLink('/g/d01')",
                "    g.create_group('sub')['x'] = [7]",
                "    for i in range(4, 10):",
                "        del g['d%02d' % i]");

        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            assertTrue(g.denseLinks() != null, "h5py keeps 6 links dense");
            g.delete("d03");
            assertEquals(null, g.denseLinks());
            g.delete("soft");
            assertEquals(4, g.memberNames().size());
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            assertEquals(List.of("d00", "d01", "d02", "sub"), g.memberNames());
            g.createDataset("new", Datatype.INT64, new long[] {1},
                    ElementCodec.encode(Datatype.INT64, new long[] {42}));
        }
        Hdf5Verifier.verify(path);
        List<String> tree = h5pyTree(path);
        assertTrue(tree.contains("/g|d00,d01,d02,new,sub"), tree.toString());
        assertTrue(tree.contains("/g/d02|[2, 3]"), tree.toString());
        assertTrue(tree.contains("/g/new|[42]"), tree.toString());
        assertTrue(tree.contains("/g/sub/x|[7]"), tree.toString());
        h5dumpSucceeds(path);
        h5py(path, "with h5py.File(sys.argv[1], 'a') as f:",
                "    f['g'].create_group('later')",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    assert list(f['g']) == ['d00', 'd01', 'd02', 'later', 'new', 'sub'], list(f['g'])");
    }

    /**
     * Deleting from a dense group that keeps at least its minimum (11 of h5py's 12 links) moves
     * the links into its header too; h5py and h5dump read the 11, and h5py's next link moves
     * them back into dense storage.
     */
    @Test
    @StartsOutsideProgram
    void aDenseGroupKeepingItsMinimumMovesItsLinksIntoItsHeaderToo() throws IOException {
        Path path = dir.resolve("dense-kept.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    g = f.create_group('g')",
                "    for i in range(12):",
                "        g['d%02d' % i] = [i]");
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            assertTrue(g.denseLinks() != null);
            g.delete("d03");
            assertEquals(null, g.denseLinks());
            assertEquals(11, g.memberNames().size());
        }
        Hdf5Verifier.verify(path);
        List<String> tree = h5pyTree(path);
        assertTrue(tree.contains("/g|d00,d01,d02,d04,d05,d06,d07,d08,d09,d10,d11"), tree.toString());
        assertTrue(tree.contains("/g/d11|[11]"), tree.toString());
        h5dumpSucceeds(path);
        h5py(path, "with h5py.File(sys.argv[1], 'a') as f:",
                "    f['g']['d03'] = [33]");
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertTrue(g.denseLinks() != null, "libhdf5 stores the 12 links densely again");
            assertArrayEquals(new long[] {33}, g.dataset("d03").readLongs(new long[] {0}, new long[] {1}));
        }
        Hdf5Verifier.verify(path);
    }

    @Test
    void aReadOnlyFileRefuses() throws IOException {
        Path path = dir.resolve("read-only.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createGroup("g");
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertThrows(IllegalStateException.class, () -> file.root().delete("g"));
        }
    }

    /**
     * A group of libhdf5's default format stores its links in a symbol table; deleting its only
     * link drops the symbol table node from the group's B-tree, as libhdf5 does.
     */
    @Test
    @StartsOutsideProgram
    void aSymbolTableNodesOnlyLinkIsDeleted() throws IOException {
        Path path = dir.resolve("old-style.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w') as f:", "    f.create_group('g').create_group('h')");
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group("g").delete("h");
        }
        h5py(path, "with h5py.File(sys.argv[1], 'r') as f:", "    assert list(f['g']) == []");
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of(), file.root().group("g").memberNames());
        }
    }

    /** Each group as "path|members" and each dataset as "path|values", as h5py sees them. */
    static List<String> h5pyTree(Path path) {
        ExternalTools.Result result = h5py(path,
                "out = []",
                "def visit(name, obj):",
                "    if isinstance(obj, h5py.Group):",
                "        out.append('/%s|%s' % (name, ','.join(obj.keys())))",
                "    else:",
                "        out.append('/%s|%s' % (name, obj[()].tolist()))",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    out.append('/|%s' % ','.join(f.keys()))",
                "    f.visititems(visit)",
                "print('\\n'.join(sorted(out)))");
        return result.stdout().lines().toList();
    }

    static ExternalTools.Result h5py(Path path, String... lines) {
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py, numpy as np\n" + String.join("\n", lines),
                path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return result;
    }

    static void h5dumpSucceeds(Path path) {
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result result = ExternalTools.run(List.of("h5dump", path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
    }
}
