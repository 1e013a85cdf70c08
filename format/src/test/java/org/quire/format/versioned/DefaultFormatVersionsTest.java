package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.versioned.VersionedFileTest.DAY;
import static org.quire.format.versioned.VersionedFileTest.int64;
import static org.quire.format.versioned.VersionedInteropTest.client;
import static org.quire.format.versioned.VersionedInteropTest.kind;
import static org.quire.format.versioned.VersionedInteropTest.quireLines;
import static org.quire.format.versioned.VersionedInteropTest.rows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;

/**
 * Issue 11 item 3 on files in libhdf5's default format, which versioned-hdf5 writes unless h5py
 * is told {@code libver='latest'} (superblock 0, version-1 object headers, old-style groups,
 * version-1 B-tree chunk indexes; {@code versioned_interop.py create-default}): Quire commits
 * versions into them, versioned-hdf5 1.7.0, plain h5py and h5dump read every version, and
 * versioned-hdf5 commits on top, three times in turn; Quire deletes versions from them. The file
 * stays in the old format ({@code old_format_layout.py}: superblock 0, the versions group's
 * symbol table, version-1 B-tree chunk indexes, as libhdf5's h5debug reads them), with its
 * true end of file and no flags once Quire closed it, and h5py refuses it while Quire writes.
 */
@StartsOutsideProgram
class DefaultFormatVersionsTest {

    @TempDir
    Path dir;

    @BeforeEach
    void requireOracles() {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5dump");
        ExternalTools.requireTool("h5debug");
    }

    @Test
    void quireAndVersionedHdf5CommitInTurnToASmallDefaultFormatFile() throws IOException {
        Path path = dir.resolve("small.h5");
        List<String> theirs = client("create-default", path.toString(), "3");
        assertEquals(kind(theirs, "D|"), quireLines(path));
        assertEquals(List.of("SB|0|0", "STAB|0|1|32", "CHUNKS|x|v1 B-tree|0",
                "CHUNKS|grp/t|v1 B-tree|0"), layout(path, false, "x", "grp/t"));

        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            assertEquals("p2", vf.currentVersion());
            refusedByH5pyWhileOpen(path);
            vf.commit("q1", "p2", DAY, v -> {
                v.dataset("x").write(new long[] {1}, new long[] {2}, new long[] {-1, -2});
                v.dataset("grp/t").resize(7);
            });
            // New stores under /_version_data (old-style) and under its old-style group grp.
            vf.commit("q2", "q1", DAY.plusSeconds(1), v -> {
                v.createDataset("y", DatasetSpec.builder(Datatype.INT64, 3).chunkShape(2).build(),
                        int64(7, 8, 9));
                v.createDataset("grp/u", DatasetSpec.builder(Datatype.INT64, 2).chunkShape(2)
                        .build(), int64(-5, -6));
            });
        }
        List<String> read = readByEveryone(path, "q2");
        assertTrue(kind(read, "D|").contains("D|q1|grp/t|<i8|7|5,5,5,5,5,0,0"), read.toString());
        assertTrue(kind(read, "D|").contains("D|q2|y|<i8|3|7,8,9"), read.toString());
        assertTrue(kind(read, "D|").contains("D|q2|grp/u|<i8|2|-5,-6"), read.toString());
        assertTrue(x(read, "q2").startsWith("0,-1,-2,3,"), read.toString());

        for (int turn = 1; turn <= 3; turn++) {
            List<String> more = client("commit", path.toString(), "py" + turn, "change");
            assertEquals(quireLines(path), kind(more, "D|"), "py" + turn);
            assertTrue(x(more, "py" + turn).startsWith("0,555,-2,"), more.toString());
            String ours = "q" + (2 + turn);
            long value = 100 + turn;
            try (VersionedFile vf = VersionedFile.openForWriting(path)) {
                vf.commit(ours, v -> v.dataset("x").write(new long[] {63}, new long[] {1},
                        new long[] {value}));
            }
            List<String> after = readByEveryone(path, ours);
            assertTrue(x(after, ours).startsWith("0,555,-2,") && x(after, ours).endsWith("," + value),
                    after.toString());
        }

        // Deleting p1 rewrites p0's and p2's views: grp/t, the only link of p0's grp, leaves
        // its symbol table node (dropped from grp's B-tree) and is linked again.
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("p1");
            vf.verify();
        }
        List<String> withoutP1 = readByEveryone(path, "q5");
        assertTrue(kind(withoutP1, "D|").contains("D|p0|grp/t|<i8|5|5,5,5,5,5"),
                withoutP1.toString());
        String stab = layout(path, true, "x", "grp/t").get(1);
        // From q2 on, grp holds t and u.
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("p0", "p2", "q1", "py2");
            vf.verify();
        }
        assertEquals(stab, layout(path, true, "x", "grp/t").get(1), "no versions node emptied");
        List<String> left = readByEveryone(path, "q5");
        // p0 <- p1 <- p2 <- q1 <- q2 <- py1 <- q3 <- py2 <- q4 <- py3 <- q5, five deleted.
        for (String parent : List.of("V|q2|__first_version__|", "V|q4|q3|", "V|q5|py3|")) {
            assertTrue(kind(left, "V|").stream().anyMatch(l -> l.startsWith(parent)), left.toString());
        }
        assertEquals(6, kind(left, "V|").size(), left.toString());
        assertTrue(kind(left, "D|").contains("D|q2|grp/t|<i8|7|5,5,5,5,5,0,0"), left.toString());
        Map<String, String> rowsLeft = rows(left);
        Map<String, String> rowsAfter = rows(client("commit", path.toString(), "py4", "same"));
        // grp/t's chunk [6:7], unmapped since q1 grew it, is the one chunk 1.7.0 stores anew
        // (as in VersionedInteropTest); every other chunk it finds stored.
        assertEquals("4|2", rowsLeft.remove("grp/t"));
        assertEquals("6|3", rowsAfter.remove("grp/t"));
        assertEquals(rowsLeft, rowsAfter);
    }

    /**
     * Deleting versions p3 ... p9 of versioned-hdf5's twelve empties the versions group's last
     * symbol table node ({@code __first_version__ p0 p1 p10 p11 p2 | p3 ... p9}, as libhdf5
     * split them), which leaves its B-tree; every survivor's view {@code grp/t}, the only link
     * of its {@code grp}, is deleted and linked again. versioned-hdf5 reads the rest and
     * commits on top.
     */
    @Test
    void deletingVersionsEmptiesANodeOfTheVersionsGroup() throws IOException {
        Path path = dir.resolve("twelve.h5");
        client("create-default", path.toString(), "12");
        assertEquals("STAB|0|2", layout(path, true, "x", "grp/t").get(1).replaceAll("\\|\\d+$", ""));
        assertEquals("|p2|p9", versionsTreeKeys(path), "h5debug: the root's keys");
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("p3", "p4", "p5", "p6", "p7", "p8", "p9");
            vf.verify();
        }
        assertEquals("STAB|0|1", layout(path, true, "x", "grp/t").get(1).replaceAll("\\|\\d+$", ""),
                "the versions group's tree has one node left");
        assertEquals("|p2", versionsTreeKeys(path), "the right key of the last child left");
        assertEquals(List.of("__first_version__", "p0", "p1", "p10", "p11", "p2"),
                h5pyVersionNames(path));
        List<String> left = readByEveryone(path, "p11");
        assertEquals(5, kind(left, "V|").size(), left.toString());
        assertTrue(kind(left, "D|").contains("D|p0|grp/t|<i8|5|5,5,5,5,5"), left.toString());
        List<String> more = client("commit", path.toString(), "py1", "change");
        assertEquals(quireLines(path), kind(more, "D|"));
    }

    /**
     * A commit failing after its version group was linked into the versions group's symbol
     * table takes the link out again (as in {@code VersionedFileTest}: an attribute larger than
     * a header message); the file closes as versioned-hdf5 left it but for the failed commit's
     * published chunk, and a retry commits.
     */
    @Test
    void aFailedCommitLeavesNoVersionInTheOldStyleVersionsGroup() throws IOException {
        Path path = dir.resolve("failed.h5");
        client("create-default", path.toString(), "3");
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            assertThrows(IllegalArgumentException.class, () -> vf.commit("q1", v -> {
                v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {-7});
                v.dataset("x").setAttribute(new Attribute("big", Datatype.UINT8,
                        new long[] {70_000}, new byte[70_000]));
            }));
            assertEquals("p2", vf.currentVersion());
            assertEquals(List.of("p0", "p1", "p2"),
                    vf.versions().stream().map(VersionInfo::name).toList());
        }
        List<String> read = readByEveryone(path, "p2");
        assertEquals(3, kind(read, "V|").size(), read.toString());
        assertEquals(List.of("__first_version__", "p0", "p1", "p2"), h5pyVersionNames(path));
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("q1", v -> v.dataset("x").write(new long[] {0}, new long[] {1},
                    new long[] {-7}));
        }
        assertTrue(x(readByEveryone(path, "q1"), "q1").startsWith("-7,1,2,3,1001,"));
    }

    /**
     * A file h5py made with its defaults and nothing in it gets versioned-hdf5's tree from
     * Quire (versioned-hdf5's {@code initialize}: {@code /_version_data} linked into the
     * old-style root group), which versioned-hdf5 then reads and commits to.
     */
    @Test
    void quireStartsTheVersionedTreeInAnEmptyDefaultFormatFile() throws IOException {
        Path path = dir.resolve("empty.h5");
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import h5py, sys\nh5py.File(sys.argv[1], 'w').close()", path.toString()), 60);
        assertEquals(0, made.exitCode(), made.output());
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("q1", v -> v.createDataset("x", DatasetSpec.builder(Datatype.INT64, 64)
                    .chunkShape(4).build(), int64(LongStream.range(0, 64).toArray())));
        }
        List<String> read = client("read", path.toString());
        assertEquals(quireLines(path), kind(read, "D|"));
        assertEquals(List.of("C|q1"), kind(read, "C|"));
        List<String> more = client("commit", path.toString(), "py1", "change");
        assertTrue(x(more, "py1").startsWith("0,555,2,3,"), more.toString());
        assertEquals(quireLines(path), kind(more, "D|"));
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", "-H", path.toString()), 120);
        assertEquals(0, dump.exitCode(), dump.output());
        // Quire's own groups and datasets (version-2 headers) in a superblock-0 file.
        assertEquals(List.of("SB|0|0", "STAB|none"), layout(path, false).subList(0, 2));
    }

    /**
     * 300 versions by versioned-hdf5, one open each: the versions group's B-tree has split its
     * root (level 1), its local heap grew into a new block, x's chunk index is a two-level B-tree.
     * Quire adds versions in the middle of the names and at their end.
     */
    @Test
    void quireCommitsToALongDefaultFormatHistory() throws IOException {
        Path path = dir.resolve("long.h5");
        long started = System.nanoTime();
        List<String> theirs = client("create-default", path.toString(), "300");
        assertTrue(System.nanoTime() - started < 60e9, "the 300-version fixture takes under a minute");
        List<String> before = layout(path, false, "x", "grp/t");
        assertEquals("STAB|1", before.get(1).substring(0, 6), before.toString());
        assertNotEquals("32", before.get(1).split("\\|")[3], "the heap's data moved: " + before);
        assertEquals("CHUNKS|x|v1 B-tree|1", before.get(2));
        assertEquals(kind(theirs, "D|"), quireLines(path));

        for (int turn = 1; turn <= 3; turn++) {
            long value = -turn;
            long at = 4L * turn + 1;
            try (VersionedFile vf = VersionedFile.openForWriting(path)) {
                // "p1500" sorts among p150 ... p151, "q" after every "p".
                for (String name : List.of("p" + turn + "500", "q" + turn)) {
                    vf.commit(name, v -> v.dataset("x").write(new long[] {at},
                            new long[] {1}, new long[] {value}));
                }
            }
            List<String> read = readByEveryone(path, "q" + turn);
            assertTrue(x(read, "p" + turn + "500").contains("," + value + ","), read.toString());
            List<String> more = client("commit", path.toString(), "py" + turn, "change");
            assertEquals(quireLines(path), kind(more, "D|"));
        }
        assertEquals(300 + 9, kind(client("read", path.toString()), "V|").size());
    }

    /** versioned-hdf5, h5py and h5dump read what Quire reads; the file is in the old format, closed. */
    private List<String> readByEveryone(Path path, String current) throws IOException {
        List<String> read = client("read", path.toString());
        assertEquals(quireLines(path), kind(read, "D|"));
        assertEquals(kind(read, "D|").stream().map(l -> l.substring(1)).toList(),
                kind(read, "H|").stream().map(l -> l.substring(1)).toList());
        assertEquals(List.of("C|" + current), kind(read, "C|"));
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", "-H", path.toString()), 120);
        assertEquals(0, dump.exitCode(), dump.output());
        assertTrue(dump.stdout().contains("GROUP \"" + current + "\""), dump.output());
        layout(path, true, "x", "grp/t");
        return read;
    }

    /**
     * old_format_layout.py's lines for {@code datasets}; asserts superblock 0 with its true end
     * of file and no flags and, with {@code check}, the versions group old-style and x's and
     * grp/t's chunk indexes version-1 B-trees.
     */
    private static List<String> layout(Path path, boolean check, String... datasets) {
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                VersionedInteropTest.resource("old_format_layout.py").toString(), path.toString()));
        command.addAll(List.of(datasets));
        ExternalTools.Result result = ExternalTools.run(command, 120);
        assertEquals(0, result.exitCode(), result.output());
        List<String> lines = new ArrayList<>(result.stdout().lines().toList());
        String[] superblock = lines.get(0).split("\\|");
        assertEquals(superblock[3], superblock[4], "stored end of file == file size: " + lines);
        lines.set(0, "SB|" + superblock[1] + "|" + superblock[2]);
        assertEquals("SB|0|0", lines.get(0), lines.toString());
        if (check) {
            assertTrue(lines.get(1).matches("STAB\\|\\d+\\|\\d+\\|\\d+"), lines.toString());
            assertTrue(lines.get(2).startsWith("CHUNKS|x|v1 B-tree|"), lines.toString());
            assertTrue(lines.get(3).startsWith("CHUNKS|grp/t|v1 B-tree|"), lines.toString());
        }
        return lines;
    }

    /**
     * The names of the keys of the versions group's B-tree root as h5debug reads them (key 0,
     * then each child's right key), joined by "|".
     */
    private static String versionsTreeKeys(Path path) {
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n",
                        "import h5py, subprocess, sys",
                        "def debug(*args):",
                        "    return subprocess.run(['h5debug', sys.argv[1]] + [str(a) for a in args],",
                        "                          check=True, capture_output=True, text=True).stdout",
                        "def field(out, name):",
                        "    return [l.split(':', 1)[1].strip() for l in out.splitlines()",
                        "            if l.strip().startswith(name + ':')]",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    header = h5py.h5o.get_info(f['_version_data/versions'].id).addr",
                        "stab = debug(header)",
                        "tree = debug(field(stab, 'B-tree address')[0], field(stab, 'Name heap address')[0])",
                        "names = field(tree, 'Name')",
                        "print('|'.join([names[0]] + names[1::2]))"), path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().strip();
    }

    /** The names in /_version_data/versions, as h5py lists them. */
    private static List<String> h5pyVersionNames(Path path) {
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import h5py, sys\nprint('\\n'.join(h5py.File(sys.argv[1], 'r')"
                        + "['_version_data/versions']))", path.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().toList();
    }

    /** h5py cannot open the file while Quire writes it: the stored end of file is Quire's guard. */
    private static void refusedByH5pyWhileOpen(Path path) {
        ExternalTools.Result refused = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import h5py, sys\nh5py.File(sys.argv[1], 'r')", path.toString()), 60);
        assertNotEquals(0, refused.exitCode());
        assertTrue(refused.output().contains("truncated file"), refused.output());
    }

    /** The values of x in version {@code version} of the client's D lines. */
    private static String x(List<String> lines, String version) {
        String prefix = "D|" + version + "|x|<i8|64|";
        return kind(lines, prefix).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no x in " + version + ": " + lines))
                .substring(prefix.length());
    }
}
