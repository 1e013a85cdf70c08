package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/** {@code quire h5 ls}, run as a real process on files Quire and h5py wrote. */
class H5ListIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void writeFile() throws Exception {
        file = dir.resolve("fixtures.h5");
        H5Fixtures.write(file);
    }

    private static final List<String> CUBE = List.of(
            "dataset /grid/cube",
            "    shape:       [3, 4, 5]",
            "    max shape:   [3, 4, 5]",
            "    type:        int16 BE",
            "    chunk shape: [2, 2, 2]",
            "    chunk index: fixed array",
            "    filters:     fletcher32",
            "    fill value:  0 (default)");

    @Test
    void listsEveryObjectWithItsPropertiesAndAttributesLineByLine() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", file.toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        List<String> expected = new java.util.ArrayList<>(List.of(
                "group /",
                "    @title: string[variable] nullterm utf8 = \"Quire h5 test\"",
                "    @steps: int64 LE = [1, 2, 3, 4, 5, 6, 7, 8, ...] (12 values)",
                "group /grid",
                "    @origin: float64 LE = [0.25, -1.5]"));
        expected.addAll(CUBE);
        expected.addAll(List.of(
                "dataset /grid/floats2d",
                "    shape:       [4, 5]",
                "    max shape:   [4, 5]",
                "    type:        float64 LE",
                "    chunk shape: [2, 3]",
                "    chunk index: fixed array",
                "    filters:     shuffle, deflate(6)",
                "    fill value:  0.0 (default)",
                "    @units: string[variable] nullterm utf8 = \"K\"",
                "dataset /grid/ints1d",
                "    shape:       [10]",
                "    max shape:   [10]",
                "    type:        int64 LE",
                "    chunk shape: [4]",
                "    chunk index: fixed array",
                "    filters:     none",
                "    fill value:  -1",
                "dataset /log",
                "    shape:       [40]",
                "    max shape:   [inf]",
                "    type:        float32 LE",
                "    chunk shape: [2]",
                "    chunk index: extensible array",
                "    filters:     none",
                "    fill value:  0.0 (default)",
                "dataset /names",
                "    shape:       [3]",
                "    max shape:   [3]",
                "    type:        string[8] nullterm ascii",
                "    chunk shape: [3]",
                "    chunk index: single chunk",
                "    filters:     none",
                "    fill value:  \"\" (default)",
                "dataset /records",
                "    shape:       [4]",
                "    max shape:   [4]",
                "    type:        compound[12] {id: int32 LE @0, x: float64 LE @4}",
                "    chunk shape: [2]",
                "    chunk index: fixed array",
                "    filters:     none",
                "    fill value:  {id=0, x=0.0} (default)",
                "dataset /sparse",
                "    shape:       [1000000, 1000000]",
                "    max shape:   [1000000, 1000000]",
                "    type:        int32 LE",
                "    chunk shape: [1000, 1000]",
                "    chunk index: fixed array",
                "    filters:     none",
                "    fill value:  7"));
        assertEquals(expected, result.stdoutLines());
    }

    @Test
    void aPathListsItsSubtreeOrOneDataset() throws Exception {
        QuireCommand.Result group = QuireCommand.run(LIMIT, "h5", "ls", file.toString(), "/grid");
        assertEquals(0, group.exitCode(), group.toString());
        assertEquals(List.of("group /grid", "dataset /grid/cube", "dataset /grid/floats2d", "dataset /grid/ints1d"),
                group.stdoutLines().stream().filter(l -> !l.startsWith(" ")).toList());
        QuireCommand.Result dataset = QuireCommand.run(LIMIT, "h5", "ls", file.toString(), "grid/cube");
        assertEquals(0, dataset.exitCode(), dataset.toString());
        assertEquals(CUBE, dataset.stdoutLines());
    }

    @Test
    void listsTheObjectsH5dumpFindsInAFileH5pyWrote() throws Exception {
        H5pyFixture h5py = H5pyFixture.write(dir);
        Path h5dump = RequiredTool.require("h5dump", "hdf5-tools");
        QuireCommand.Result reference = QuireCommand.runProcess(new ProcessBuilder(h5dump.toString(), "-n",
                h5py.file().toString()), LIMIT);
        assertEquals(0, reference.exitCode(), reference.toString());
        List<String> h5dumpObjects = reference.stdoutLines().stream().map(String::strip)
                .filter(l -> l.startsWith("group ") || l.startsWith("dataset "))
                .map(l -> l.replaceAll(" +", " ")).sorted().toList();

        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", h5py.file().toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        assertEquals(h5dumpObjects, lines.stream().filter(l -> !l.startsWith(" ")).sorted().toList());
        // 9 objects, then /many: 10 groups and 3 datasets.
        assertEquals(23, h5dumpObjects.size(), h5dumpObjects.toString());
        assertTrue(lines.contains("    @origin: string[4] nullpad ascii = \"h5py\""), result.toString());
        assertEquals(List.of(
                "dataset /g/normal",
                "    shape:       [2, 3, 4]",
                "    max shape:   [2, 3, 4]",
                "    type:        float64 LE",
                "    chunk shape: [1, 2, 2]",
                "    chunk index: fixed array",
                "    filters:     shuffle, deflate(4), fletcher32"),
                lines.subList(lines.indexOf("dataset /g/normal"), lines.indexOf("dataset /g/normal") + 7));
        assertTrue(lines.contains("    @seed: int64 LE = 7"), result.toString());
        assertTrue(lines.contains("    type:        int32 BE"), result.toString());
        assertTrue(lines.contains("    type:        compound[16] {n: int64 LE @0, v: float64 BE @8}"),
                result.toString());
        int halfs = lines.indexOf("dataset /halfs");
        assertEquals("    max shape:   [inf]", lines.get(halfs + 2));
        assertEquals("    chunk index: extensible array", lines.get(halfs + 5));
        int pairs = lines.indexOf("dataset /pairs");
        assertEquals("    chunk index: single chunk", lines.get(pairs + 5));
        int sheet = lines.indexOf("dataset /sheet");
        assertEquals(List.of("dataset /sheet", "    shape:       [5, 6]", "    max shape:   [inf, inf]",
                "    type:        int16 LE", "    chunk shape: [2, 4]", "    chunk index: v2 B-tree"),
                lines.subList(sheet, sheet + 6));
        int early = lines.indexOf("dataset /g/early");
        assertEquals("    chunk index: implicit", lines.get(early + 5));
        // Dense links and attributes (h5py made them in reverse name order), contiguous datasets
        // (one a scalar) and a compact one.
        List<String> many = new java.util.ArrayList<>(List.of("group /many"));
        for (int i = 0; i < 10; i++) {
            many.add(String.format("    @attr_%02d: int32 LE = %d", i, (9 - i) * (9 - i)));
        }
        many.addAll(List.of(
                "dataset /many/plain",
                "    shape:       [3, 4]",
                "    max shape:   [3, 4]",
                "    type:        float64 LE",
                "    layout:      contiguous",
                "    filters:     none",
                "    fill value:  0.0 (default)",
                "dataset /many/scalar",
                "    shape:       []",
                "    max shape:   []",
                "    type:        float32 LE",
                "    layout:      contiguous",
                "    filters:     none",
                "    fill value:  0.0 (default)",
                "dataset /many/small",
                "    shape:       [2, 3]",
                "    max shape:   [2, 3]",
                "    type:        int16 BE",
                "    layout:      compact",
                "    filters:     none",
                "    fill value:  0 (default)"));
        for (int i = 0; i < 10; i++) {
            many.add(String.format("group /many/sub_%02d", i));
        }
        int first = lines.indexOf("group /many");
        assertEquals(many, lines.subList(first, Math.min(lines.size(), first + many.size())));
    }

    @Test
    void listsTheSameFileInLibhdf5sDefaultFormatWithVersion1BTreeIndexes() throws Exception {
        H5pyFixture latest = H5pyFixture.write(dir);
        H5pyFixture earliest = H5pyFixture.writeEarliest(dir);
        QuireCommand.Result reference = QuireCommand.run(LIMIT, "h5", "ls", latest.file().toString());
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", earliest.file().toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        // Every chunked dataset is indexed by a version-1 B-tree; /many's 10 attributes are
        // stored in its object header, listed as stored (h5py made them in reverse name order).
        List<String> expected = new java.util.ArrayList<>(reference.stdoutLines().stream()
                .map(l -> l.startsWith("    chunk index: ") ? "    chunk index: v1 B-tree" : l).toList());
        int firstAttribute = expected.indexOf("    @attr_00: int32 LE = 81");
        java.util.Collections.reverse(expected.subList(firstAttribute, firstAttribute + 10));
        assertEquals(expected, result.stdoutLines());
        assertEquals(7, expected.stream().filter(l -> l.equals("    chunk index: v1 B-tree")).count());
    }

    @Test
    void objectsReachedAgainAreOneLineSoCyclesEndAndUnreadableMembersAreMarked() throws Exception {
        RequiredTool.requireWorking(H5pyFixture.PYTHON, "python3-h5py (apt-get install python3-h5py)",
                "-c", "import h5py, numpy");
        Path links = dir.resolve("links.h5");
        QuireCommand.Result written = QuireCommand.runProcess(new ProcessBuilder(H5pyFixture.PYTHON.toString(),
                "-c", String.join("\n",
                        "import h5py, numpy",
                        "with h5py.File('" + links + "', 'w', libver='latest') as f:",
                        "    g = f.create_group('g')",
                        "    g.create_dataset('d', data=numpy.arange(10), chunks=(4,))",
                        "    g['up'] = f",
                        "    f['alias'] = g['d']",
                        "    f['soft'] = h5py.SoftLink('/g/d')",
                        "    f['ext'] = h5py.ExternalLink('other.h5', '/x')")), LIMIT);
        assertEquals(0, written.exitCode(), written.toString());
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", links.toString());
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals(List.of(
                "group /",
                "dataset /alias",
                "    shape:       [10]",
                "    max shape:   [10]",
                "    type:        int64 LE",
                "    chunk shape: [4]",
                "    chunk index: fixed array",
                "    filters:     none",
                "    fill value:  0 (default)",
                "unsupported /ext: link: found an external link (type 64); supported: hard and soft links"
                        + " (types 0 and 1)",
                "group /g",
                "dataset /g/d (same object as /alias)",
                "group /g/up (same object as /)",
                "link /soft -> /g/d"),
                result.stdoutLines());
        assertEquals(List.of("quire h5 ls: 1 member(s) or attribute(s) not listed: Quire does not read"
                + " them yet (lines 'unsupported PATH: why' and '@NAME: unsupported: why' above)"),
                result.stderr().lines().toList());
        // A soft link is followed where a path is looked up.
        QuireCommand.Result dump = QuireCommand.run(LIMIT, "h5", "dump", links.toString(), "/soft");
        assertEquals(List.of("[0]: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9"), dump.stdoutLines(), dump.toString());
    }

    /** The line of a member Quire cannot read names the structure and its offset, not only what was found. */
    @Test
    void anUnsupportedMemberNamesTheStructureAndItsOffset() throws Exception {
        RequiredTool.requireWorking(H5pyFixture.PYTHON, "python3-h5py (apt-get install python3-h5py)",
                "-c", "import h5py, numpy");
        Path refs = dir.resolve("refs.h5");
        QuireCommand.Result written = QuireCommand.runProcess(new ProcessBuilder(H5pyFixture.PYTHON.toString(),
                "-c", String.join("\n",
                        "import h5py",
                        "with h5py.File('" + refs + "', 'w', libver='latest') as f:",
                        "    f.create_dataset('refs', (2,), dtype=h5py.ref_dtype)")), LIMIT);
        assertEquals(0, written.exitCode(), written.toString());
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", refs.toString());
        assertEquals(1, result.exitCode(), result.toString());
        String line = result.stdoutLines().stream().filter(l -> l.startsWith("unsupported /refs: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no line for /refs in " + result));
        // The path once, then the structure, its offset, what was found and what is supported.
        assertTrue(line.matches("unsupported /refs: datatype message at offset [1-9][0-9]*: found"
                + " reference datatype \\(class 7\\); supported: .+"), line);
    }

    /** A dataset with Quire's skip list index (h5py cannot read it): ls, dump and verify do. */
    @Test
    void aSkipListDatasetIsListedDumpedAndVerified() throws Exception {
        Path skipList = dir.resolve("skip-list.h5");
        try (Hdf5File written = Hdf5File.create(skipList)) {
            Dataset series = written.root().createDataset("series",
                    DatasetSpec.builder(Datatype.INT64, 0).maxShape(DatasetSpec.UNLIMITED)
                            .chunkShape(4).quireOnlySkipListIndex().build());
            long[] values = new long[1000];
            java.util.Arrays.setAll(values, i -> 3L * i);
            series.extend(values.length);
            series.write(new long[] {0}, new long[] {values.length}, values);
        }
        QuireCommand.Result listed = QuireCommand.run(LIMIT, "h5", "ls", skipList.toString());
        assertEquals(0, listed.exitCode(), listed.toString());
        assertTrue(listed.stdout().contains("    chunk index: skip list (Quire only)\n"),
                listed.toString());
        QuireCommand.Result dumped = QuireCommand.run(LIMIT, "h5", "dump", skipList.toString(),
                "/series", "--slice", "995:1000");
        assertEquals(0, dumped.exitCode(), dumped.toString());
        assertEquals("[995]: 2985, 2988, 2991, 2994, 2997", dumped.stdout().strip());
        QuireCommand.Result verified = QuireCommand.run(LIMIT, "h5", "verify",
                skipList.toString());
        assertEquals(0, verified.exitCode(), verified.toString());
        assertTrue(verified.stdout().contains("skip list configuration 1, skip list supernode 5,"
                + " skip list tail 1") && verified.stdout().contains("250 stored chunks"),
                verified.toString());
    }

    @Test
    void badArgumentsAreOneLineAndStatus2() throws Exception {
        QuireCommand.Result missing = QuireCommand.run(LIMIT, "h5", "ls", dir.resolve("nope.h5").toString());
        assertEquals(2, missing.exitCode(), missing.toString());
        assertEquals(List.of("quire h5 ls: " + dir.resolve("nope.h5") + ": no such file", "see quire h5 ls --help"),
                missing.stderr().lines().toList());

        QuireCommand.Result noObject = QuireCommand.run(LIMIT, "h5", "ls", file.toString(), "/grid/nothing");
        assertEquals(2, noObject.exitCode(), noObject.toString());
        assertEquals(List.of("quire h5 ls: no object /grid/nothing in " + file, "see quire h5 ls --help"),
                noObject.stderr().lines().toList());

        QuireCommand.Result throughDataset = QuireCommand.run(LIMIT, "h5", "ls", file.toString(), "/log/x");
        assertEquals(2, throughDataset.exitCode(), throughDataset.toString());
        assertEquals(List.of("quire h5 ls: /log is a dataset, not a group: no /log/x in " + file,
                "see quire h5 ls --help"),
                throughDataset.stderr().lines().toList());
    }

    @Test
    void aFileThatIsNotHdf5IsStatus1SayingSoAndWhatItHolds() throws Exception {
        Path text = Files.writeString(dir.resolve("text.h5"), "not an HDF5 file, just some text here",
                StandardCharsets.US_ASCII);
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", text.toString());
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals(List.of("quire h5 ls: " + text + ": not an HDF5 file: it starts with 6e 6f 74 20 61 6e 20 48"
                + " (\"not an H\"), and no HDF5 signature 89 48 44 46 0d 0a 1a 0a (\".HDF....\") is at offset 0, 512,"
                + " 1024, 2048, ..."), result.stderr().lines().toList());
        assertEquals("", result.stdout());
    }

    @Test
    void aDenseLinkRenamedInItsHeapBlockIsStatus1InOneLine() throws Exception {
        H5pyFixture h5py = H5pyFixture.write(Files.createDirectories(dir.resolve("renamed")));
        byte[] bytes = Files.readAllBytes(h5py.file());
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int name = text.indexOf("sub_05");
        int block = text.lastIndexOf("FHDB", name);
        assertTrue(name > 0 && block > 0, name + " " + block);
        bytes[name + 4] = 'X'; // "sub_X5": listed, but not where its name hash would find it
        // libhdf5's default link heap: 512-byte blocks, 4-byte heap offsets; the checksum (after
        // signature, version, heap header address and block offset) covers the block with its
        // own field zeroed. Were this wrong, ls would report a checksum mismatch below instead.
        int checksumAt = block + 4 + 1 + 8 + 4;
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(checksumAt, 0);
        buffer.putInt(checksumAt, JenkinsLookup3.checksum(bytes, block, 512));
        Path damaged = Files.write(dir.resolve("renamed-link.h5"), bytes);

        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", damaged.toString());
        assertEquals(1, result.exitCode(), result.toString());
        List<String> errors = result.stderr().lines().toList();
        assertEquals(1, errors.size(), result.toString());
        assertTrue(errors.get(0).startsWith("quire h5 ls: " + damaged + ": corrupt version 2 B-tree header"
                + " of /many at offset "), errors.get(0));
        assertTrue(errors.get(0).contains("name hash expected lookup3 of \"sub_X5\""), errors.get(0));
    }
}
