package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.versioned.VersionedFileTest.DAY;
import static org.quire.format.versioned.VersionedFileTest.int64;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;
import org.quire.format.hdf5.Hdf5Verifier;

/**
 * Behaviours 6 and 7 and issue 11 item 3: versions Quire commits read the same through
 * versioned-hdf5 1.7.0's API, plain h5py and h5dump, also after the file moved; versioned-hdf5
 * dedupes against Quire's chunks (same digests); Quire reads and extends a file versioned-hdf5
 * wrote ({@code make_versioned_fixtures.py}), and versioned-hdf5 reads what Quire added.
 */
@StartsOutsideProgram
class VersionedInteropTest {

    @TempDir
    Path dir;

    @BeforeEach
    void requireOracles() {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5dump");
    }

    static Path resource(String name) {
        try {
            return Path.of(VersionedInteropTest.class.getResource("/hdf5/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs versioned_interop.py; its output lines, split at '|', keyed by the line without values. */
    static List<String> client(String... args) {
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                resource("versioned_interop.py").toString()));
        command.addAll(List.of(args));
        ExternalTools.Result result = ExternalTools.run(command, 300);
        if (result.output().contains("REQUIRED ORACLE MISSING")) {
            ExternalTools.missing("shared/tools/versioned-hdf5-1.7.0 (the reference client)");
        }
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().toList();
    }

    /** What Quire reads of every version's datasets, in the client's D-line form. */
    static List<String> quireLines(Path path) throws IOException {
        List<String> lines = new ArrayList<>();
        try (VersionedFile vf = VersionedFile.open(path)) {
            for (VersionInfo version : vf.versions().stream()
                    .sorted(java.util.Comparator.comparing(VersionInfo::name)).toList()) {
                for (String name : vf.datasetNames(version.name()).stream().sorted().toList()) {
                    lines.add("D|" + version.name() + "|" + name + "|" + values(vf.dataset(version.name(), name)));
                }
            }
        }
        return lines;
    }

    static String values(Dataset d) throws IOException {
        long[] shape = d.shape();
        String dims = LongStream.of(shape).mapToObj(Long::toString).collect(Collectors.joining(","));
        if (d.type() instanceof Datatype.FloatType) {
            double[] v = d.readDoubles(new long[shape.length], shape);
            String text = java.util.Arrays.stream(v).mapToObj(Double::toString).collect(Collectors.joining(","));
            return "<f8|" + dims + "|" + text;
        }
        long[] v = d.readLongs(new long[shape.length], shape);
        return "<i8|" + dims + "|" + LongStream.of(v).mapToObj(Long::toString).collect(Collectors.joining(","));
    }

    static List<String> kind(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).toList();
    }

    static Map<String, String> rows(List<String> lines) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : kind(lines, "R|")) {
            String[] f = line.split("\\|");
            rows.put(f[1], f[2] + "|" + f[3]);
        }
        return rows;
    }

    static byte[] float64(double... values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asDoubleBuffer().put(values);
        return bytes.array();
    }

    /** Three versions: new datasets with an attribute and a nested group, a change and resize, an empty start. */
    Path quireFile() throws IOException {
        Path path = dir.resolve("quire.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> {
                v.createDataset("x", VersionedFileTest.x10(), int64(LongStream.range(0, 10).toArray()))
                        .setAttribute(Attribute.of("unit", "m"));
                v.createDataset("grid", DatasetSpec.builder(Datatype.FLOAT64, 3, 5).chunkShape(2, 2).build(),
                        float64(LongStream.range(0, 15).asDoubleStream().toArray()));
                v.createDataset("grp/t", DatasetSpec.builder(Datatype.INT64, 5).chunkShape(2).build(),
                        int64(5, 5, 5, 5, 5));
            });
            vf.commit("v2", "v1", DAY.plusSeconds(86400), v -> {
                v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {100});
                v.dataset("grid").write(new long[] {2, 4}, new long[] {1, 1}, new double[] {-1});
                v.dataset("grp/t").resize(7);
            });
            vf.commit("v3", "", DAY.plusSeconds(2 * 86400), v -> v.createDataset("s",
                    DatasetSpec.builder(Datatype.INT64, 10).chunkShape(3).fillValue(5L).build(), null));
        }
        return path;
    }

    @Test
    void behaviour07QuireVersionsReadTheSameInVersionedHdf5AndH5py() throws IOException {
        Path path = quireFile();
        List<String> quire = quireLines(path);
        List<String> client = client("read", path.toString());
        assertEquals(quire, kind(client, "D|"));
        assertEquals(quire.stream().map(l -> "H" + l.substring(1)).toList(), kind(client, "H|"));
        assertEquals(List.of("C|v3"), kind(client, "C|"));
        assertEquals(List.of("V|v1|__first_version__|2099-01-01 00:00:00.000000+0000",
                "V|v2|v1|2099-01-02 00:00:00.000000+0000",
                "V|v3|__first_version__|2099-01-03 00:00:00.000000+0000"), kind(client, "V|"));
        assertTrue(quire.contains("D|v2|grp/t|<i8|7|5,5,5,5,5,0,0"), quire.toString());
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", "-d",
                "/_version_data/versions/v2/x", path.toString()), 60);
        assertEquals(0, dump.exitCode(), dump.output());
        assertTrue(dump.stdout().contains("100, 1, 2, 3, 4, 5, 6, 7, 8, 9"), dump.output());
    }

    @Test
    void behaviour06VersionsReadAfterTheFileMoved() throws IOException {
        Path path = quireFile();
        Path moved = Files.createDirectory(dir.resolve("elsewhere")).resolve("renamed.h5");
        Files.move(path, moved);
        assertEquals(quireLines(moved), kind(client("read", moved.toString()), "D|"));
    }

    @Test
    void versionedHdf5DedupesAgainstQuireChunks() throws IOException {
        Path path = quireFile();
        Map<String, String> before = rows(client("read", path.toString()));
        List<String> after = client("commit", path.toString(), "py_same", "same", "v2");
        Map<String, String> rowsAfter = rows(after);
        for (String dense : List.of("x", "grid")) {
            assertEquals(before.get(dense), rowsAfter.get(dense), dense + ": " + after);
        }
        // grp/t grew to 7 in v2: Quire leaves the new chunk [6:7] unmapped (fill), as
        // versioned-hdf5 2.x does; 1.7.0 writing every element stores it: one slot, no more.
        assertEquals("6|3", before.get("grp/t"));
        assertEquals("8|4", rowsAfter.get("grp/t"), after.toString());
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals("py_same", vf.currentVersion());
            assertArrayEquals(new long[] {100, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                    vf.dataset("py_same", "x").readLongs(new long[] {0}, new long[] {10}));
        }
    }

    /** §1.2: hash_table is LZF-compressed as h5py writes it: filter 32000, optional, cd_values (4, 261, 196608). */
    @Test
    void hashTableHasH5pysLzfFilter() throws IOException {
        Path path = quireFile();
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(), "-c",
                "import h5py, sys\n"
                        + "with h5py.File(sys.argv[1], 'r') as f:\n"
                        + "    plist = f['_version_data/x/hash_table'].id.get_create_plist()\n"
                        + "    for i in range(plist.get_nfilters()):\n"
                        + "        code, flags, values, name = plist.get_filter(i)\n"
                        + "        print(code, flags, list(values))\n",
                path.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        // flags 1: H5Z_FLAG_OPTIONAL; cd_values: LZF filter version 4, LZF 0x105 (1.5), chunk bytes (4096 rows of 48).
        assertEquals(List.of("32000 1 [4, 261, 196608]"), result.stdout().lines().toList(), result.output());
    }

    /**
     * A history versioned-hdf5 took past 8 versions and 8 datasets (libhdf5 stores the versions
     * group, /_version_data and every version group densely): Quire commits two more, one with
     * a new dataset (the links of the versions group and of /_version_data move into their
     * headers first), then versioned-hdf5 reads every version and commits on top (libhdf5 moves
     * the versions group's links back into dense storage), Quire deletes a version from it, and
     * Quire, h5py, h5dump and the verifiers read all of it.
     */
    @Test
    void quireCommitsToAVersionsGroupVersionedHdf5MadeDense() throws IOException {
        Path path = dir.resolve("long.h5");
        List<String> theirs = client("create", path.toString(), "12", "8");
        assertEquals(kind(theirs, "D|"), quireLines(path));
        // Dense links: the versions group's 13 (__first_version__, p0 ... p11), /_version_data's
        // 11 (versions, x, grid, e0 ... e7), each version group's 10 datasets.
        assertEquals(13 + 11 + 12 * 10, Hdf5Verifier.verify(path).denseMessages());
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("q1", "p11", DAY, v -> v.dataset("x").write(new long[] {0}, new long[] {1},
                    new long[] {-1}));
            vf.commit("q2", "p3", DAY.plusSeconds(1), v -> {
                v.dataset("grid").write(new long[] {0, 0}, new long[] {1, 1}, new double[] {-2.5});
                v.createDataset("y", DatasetSpec.builder(Datatype.INT64, 3).chunkShape(2).build(),
                        int64(7, 8, 9));
            });
        }
        assertEquals(12 * 10, Hdf5Verifier.verify(path).denseMessages(),
                "the links of the versions group and of /_version_data moved into their headers");
        List<String> read = client("read", path.toString());
        assertEquals(quireLines(path), kind(read, "D|"));
        assertEquals(kind(read, "D|").stream().map(l -> l.substring(1)).toList(),
                kind(read, "H|").stream().map(l -> l.substring(1)).toList());
        assertTrue(kind(read, "D|").contains("D|q1|x|<i8|10|-1,111,102,103,104,105,106,107,108,109"), read.toString());
        assertTrue(kind(read, "D|").contains("D|q2|grid|<f8|3,5|-2.5,1.0,2.0,3.0,-3.0,5.0,6.0,7.0,8.0,"
                + "-1.0,10.0,11.0,12.0,13.0,-2.0"), read.toString());
        assertTrue(kind(read, "D|").contains("D|q2|y|<i8|3|7,8,9"), read.toString());
        assertEquals(List.of("C|q2"), kind(read, "C|"));
        assertEquals(14, kind(read, "V|").size(), "p0 ... p11, q1, q2");

        List<String> more = client("commit", path.toString(), "py", "change", "q1");
        assertTrue(kind(more, "D|").contains("D|py|x|<i8|10|-1,555,102,103,104,105,106,107,108,109"), more.toString());
        assertEquals(quireLines(path), kind(more, "D|"));
        // The versions group's 16 links dense again; py's 10 datasets (q1's); /_version_data stays
        // compact (libhdf5 moves links into dense storage only when it adds one).
        assertEquals(12 * 10 + 16 + 10, Hdf5Verifier.verify(path).denseMessages());

        // Deleting a version from the versions group libhdf5 stored densely again.
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("p3");
            vf.verify();
        }
        List<String> left = client("read", path.toString());
        assertEquals(quireLines(path), kind(left, "D|"));
        assertTrue(kind(left, "V|").stream().anyMatch(l -> l.startsWith("V|q2|p2|")), left.toString());
        assertEquals(14, kind(left, "V|").size(), left.toString());
        assertTrue(kind(left, "D|").contains("D|q2|grid|<f8|3,5|-2.5,1.0,2.0,3.0,-3.0,5.0,6.0,7.0,8.0,"
                + "-1.0,10.0,11.0,12.0,13.0,-2.0"), left.toString());
        // Every object's metadata, and every version's data (h5dump has no LZF for hash_table).
        for (List<String> args : List.of(List.of("-H"), List.of("-g", "/_version_data/versions"))) {
            List<String> command = new ArrayList<>(List.of("h5dump"));
            command.addAll(args);
            command.add(path.toString());
            ExternalTools.Result dump = ExternalTools.run(command, 120);
            assertEquals(0, dump.exitCode(), dump.output());
            assertTrue(dump.stdout().contains("GROUP \"q2\""), args.toString());
        }
    }

    @Test
    void quireReadsAndExtendsAFileVersionedHdf5Wrote() throws IOException {
        Path fixture = resource("make_versioned_fixtures/versioned_latest.h5");
        List<String> manifest = Files.readAllLines(fixture.resolveSibling("manifest.txt"));
        assertEquals("T|versioned-hdf5|1.7.0", manifest.get(0));
        Path path = Files.copy(fixture, dir.resolve("theirs.h5"));
        assertEquals(kind(manifest, "D|"), quireLines(path));
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            assertEquals("v3", vf.currentVersion());
            assertEquals("v2", vf.version(1).name());
            vf.commit("q4", "v3", DAY.plusSeconds(3 * 86400), v -> {
                v.dataset("x").write(new long[] {2}, new long[] {1}, new long[] {222});
                v.dataset("grid").resize(2, 5);
                v.dataset("sparse").write(new long[] {9}, new long[] {1}, new long[] {9});
            });
            vf.commit("q5", "q4", DAY.plusSeconds(4 * 86400), v -> v.dataset("x")
                    .writeAll(int64(100, 1, 222, 3, 4, 5, 6, 7, 8, 9)));
        }
        List<String> client = client("read", path.toString());
        assertEquals(quireLines(path), kind(client, "D|"));
        assertTrue(kind(client, "D|").contains("D|q4|x|<i8|10|100,1,222,3,4,5,6,7,8,9"), client.toString());
        assertTrue(kind(client, "D|").contains("D|q4|sparse|<i8|10|5,5,5,5,42,5,5,5,5,9"), client.toString());
        assertEquals(List.of("C|q5"), kind(client, "C|"));
        Map<String, String> rows = rows(client);
        assertEquals("20|5", rows.get("x"), "x gained one slot (q4), none for q5's identical data");
        List<String> ours = client("commit", path.toString(), "py6", "change");
        assertTrue(kind(ours, "D|").contains("D|py6|x|<i8|10|100,555,222,3,4,5,6,7,8,9"), ours.toString());
    }

    @Test
    void versionedHdf5ReadsWhatQuireLeftAfterDeletingVersions() throws IOException {
        Path path = quireFile();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("v1", "v3");
        }
        List<String> client = client("read", path.toString());
        assertEquals(quireLines(path), kind(client, "D|"));
        assertEquals(List.of("C|__first_version__"), kind(client, "C|"), "v3, current, started empty");
        assertEquals(List.of("V|v2|__first_version__|2099-01-02 00:00:00.000000+0000"), kind(client, "V|"));
        assertEquals("12|3", rows(client).get("x"), "v1's chunk [0:4] is gone");
        List<String> more = client("commit", path.toString(), "py", "change", "v2");
        assertTrue(kind(more, "D|").contains("D|py|x|<i8|10|100,555,2,3,4,5,6,7,8,9"), more.toString());
    }

    /**
     * versioned-hdf5 commits names a selector reads as something else ({@code latest}, {@code @x});
     * Quire reads them by exact name with {@code =NAME}.
     */
    @Test
    void namesOnlyVersionedHdf5CommitsAreReachedWithEquals() throws IOException {
        Path path = dir.resolve("odd.h5");
        client("create", path.toString(), "2");
        client("commit", path.toString(), "latest", "change");
        client("commit", path.toString(), "@x", "same");
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals("@x", VersionSelector.resolve(vf, "latest").name());
            assertEquals("latest", VersionSelector.resolve(vf, "=latest").name());
            assertEquals("latest", VersionSelector.resolve(vf, "=@x").parent());
            assertEquals(555L, vf.dataset("latest", "x").readLongs(new long[] {0}, new long[] {8})[1]);
        }
    }
}
