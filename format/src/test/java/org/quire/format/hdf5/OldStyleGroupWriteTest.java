package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * Old-style groups of a file h5py wrote in libhdf5's default format, changed through {@link
 * Hdf5File#openForWriting} and {@link Group}: new groups and datasets (Quire's version-2
 * headers, linked in the symbol table) and deletions. h5py lists exactly the expected names in
 * byte order and reads every object, h5dump and h5debug read the file, the verifier passes, the
 * groups stay old-style (symbol table message, superblock 0), and h5py adds to them after.
 */
@StartsOutsideProgram
class OldStyleGroupWriteTest {

    @TempDir
    Path dir;

    @Test
    void newMembersOfOldStyleGroupsAreReadByH5pyAndLibhdf5AddsAfterThem() throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "grow",
                List.of("a1", "b22", "c333"), List.of());
        Path path = fixture.file();
        List<String> expected = new ArrayList<>(List.of("a1", "b22", "c333", "data", "sub"));
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            g.createGroup("sub").createGroup("inner");
            g.createDataset("data", Datatype.INT32, new long[] {3},
                    ElementCodec.encode(Datatype.INT32, new int[] {7, 8, 9}));
            for (String name : OldStyleGroupFixture.names("v", 40)) {
                g.createGroup(name);
                expected.add(name);
            }
            file.root().createGroup("top");
            assertTrue(g.contains("v39"));
            IllegalArgumentException nul = assertThrows(IllegalArgumentException.class,
                    () -> g.createGroup("a\0b"));
            assertEquals("not a link name for /g, an old-style group (its local heap holds names "
                    + "up to a NUL): \"a\\0b\"", nul.getMessage());
        }
        Collections.sort(expected);
        assertEquals(expected, OldStyleGroupFixture.h5pyNames(path), "h5py, in byte order");
        ExternalTools.Result values = OldFormatReopenTest.h5py(path, String.join("\n",
                "print(f['g/data'][()].tolist(), list(f['g/sub']), list(f))"));
        assertEquals("[7, 8, 9] ['inner'] ['d0', 'g', 'top']", values.stdout().strip(),
                values.output());
        OldFormatReopenTest.h5dumpSucceeds(path);
        Hdf5Verifier.verify(path);
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.Tree.read(path);
        for (long node : tree.nodes()) {
            OldStyleGroupFixture.h5debugReads(path, node, tree.heapAddress());
        }
        assertTrue(tree.nodes().size() > 2, "the first node split: " + tree.lines());
        assertEquals(0, OldFormatReopenTest.superblock(path).version());
        try (Hdf5File file = Hdf5File.open(path)) {
            assertNotNull(file.root().group("g").symbolTable(), "still old-style");
            assertEquals(expected, file.root().group("g").memberNames());
        }
        // libhdf5 adds to the table Quire changed, Quire reads it
        ExternalTools.Result more = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import h5py, sys",
                        "with h5py.File(sys.argv[1], 'r+') as f:",
                        "    f['g'].create_group('w-by-h5py')"), path.toString()), 60);
        assertEquals(0, more.exitCode(), more.output());
        expected.add("w-by-h5py");
        Collections.sort(expected);
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(expected, file.root().group("g").memberNames());
        }
    }

    @Test
    void deletedMembersAreGoneForH5pyAndQuireAddsAgain() throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "delete",
                List.of("a1", "b22", "c333", "~soft"), List.of());
        Path path = fixture.file();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            g.delete("b22");
            g.delete("soft");
            g.delete("c333");
            assertEquals(List.of("a1"), g.memberNames());
            g.createGroup("b22");
        }
        assertEquals(List.of("a1", "b22"), OldStyleGroupFixture.h5pyNames(path));
        OldFormatReopenTest.h5dumpSucceeds(path);
        Hdf5Verifier.verify(path);
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("a1", "b22"), file.root().group("g").memberNames());
        }
    }

    @Test
    void deletingEveryNameOfANodeOrOfTheGroupDropsNodesAndH5pyAddsAfter() throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "drop",
                OldStyleGroupFixture.names("v", 9), List.of());
        Path path = fixture.file();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            // v0 v1 v2 v3 | v4 .. v8: the first node empties and leaves the tree
            for (String name : List.of("v1", "v2", "v3", "v0")) {
                g.delete(name);
            }
            assertEquals(List.of("v4", "v5", "v6", "v7", "v8"), g.memberNames());
        }
        assertEquals(List.of("v4", "v5", "v6", "v7", "v8"), OldStyleGroupFixture.h5pyNames(path));
        OldFormatReopenTest.h5dumpSucceeds(path);
        Hdf5Verifier.verify(path);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            for (String name : List.of("v4", "v5", "v6", "v7", "v8")) {
                g.delete(name);
            }
            assertEquals(List.of(), g.memberNames());
        }
        assertEquals(List.of(), OldStyleGroupFixture.h5pyNames(path), "an empty group");
        Hdf5Verifier.verify(path);
        GroupDeleteTest.h5py(path, "with h5py.File(sys.argv[1], 'r+') as f:",
                "    f['g'].create_group('again')");
        assertEquals(List.of("again"), OldStyleGroupFixture.h5pyNames(path));
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("again"), file.root().group("g").memberNames());
        }
    }
}
