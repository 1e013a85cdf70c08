package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.catalog.Checkpoint;
import org.quire.format.catalog.CheckpointCatalog;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire versions}, run as a real process, on the file versioned-hdf5 1.7.0 wrote
 * ({@code make_versioned_fixtures/versioned_latest.h5}: the chunk counts below are what h5py's
 * {@code virtual_sources()} lists for it) and on a checkpoint catalog Quire wrote; every error is
 * one line with status 1 (data) or 2 (usage).
 */
class VersionsIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static Path fixture;
    private static Path catalog;
    private static Path sparse;

    @BeforeAll
    static void files() throws Exception {
        fixture = QuireCommand.repositoryRoot()
                .resolve("format/src/test/resources/hdf5/make_versioned_fixtures/versioned_latest.h5");
        sparse = dir.resolve("sparse.h5");
        try (VersionedFile versions = VersionedFile.create(sparse)) {
            DatasetSpec counts = DatasetSpec.builder(Datatype.INT64, 8).chunkShape(4).build();
            versions.commit("a", v -> v.createDataset("s", counts, null));
            versions.commit("b", v -> v.dataset("s").write(new long[] {5}, new long[] {1}, new long[] {7}));
            versions.commit("c", v -> v.dataset("s").resize(4));
        }
        catalog = dir.resolve("catalog.h5");
        DatasetSpec spec = DatasetSpec.builder(Datatype.FLOAT64, 8, 8).chunkShape(4, 4).build();
        byte[] field = new byte[64 * 8];
        try (CheckpointCatalog checkpoints = CheckpointCatalog.open(catalog)) {
            for (int step = 0; step < 3; step++) {
                // Each checkpoint changes one more element of chunk [0, 0] only.
                ByteBuffer.wrap(field).order(ByteOrder.LITTLE_ENDIAN).putDouble(8 * step, step + 1.0);
                checkpoints.commit(Checkpoint.builder("step-" + step, step, 4).dataset("t", spec, field)
                        .metadata(Attribute.of("units", "K"))
                        .timestamp(Instant.parse("2030-01-01T00:00:00Z").plusSeconds(60L * step)).build());
            }
        }
    }

    @Test
    void lsListsVersionsWithParentsTimestampsSizesAndSharedChunks() throws Exception {
        assertEquals(List.of(
                "VERSION  PARENT  TIMESTAMP             DATASETS  CHUNKS  BYTES  SHARED",
                "v1       -       2099-01-01T00:00:00Z  2         9       288    7/9 (78%)",
                "v2       v1      2099-01-02T00:00:00Z  2         9       288    9/9 (100%)",
                "*v3      v2      2099-01-03T00:00:00Z  3         10      312    9/10 (90%)"),
                ok("ls", fixture.toString()));
        // Three chunks of zeros share one slot; chunk [0, 0] is new in every checkpoint.
        assertEquals(List.of(
                "VERSION  PARENT  TIMESTAMP             DATASETS  CHUNKS  BYTES  SHARED",
                "step-0   -       2030-01-01T00:00:00Z  1         2       256    1/2 (50%)",
                "step-1   step-0  2030-01-01T00:01:00Z  1         2       256    1/2 (50%)",
                "*step-2  step-1  2030-01-01T00:02:00Z  1         2       256    1/2 (50%)"),
                ok("ls", catalog.toString()));
    }

    @Test
    void showPrintsAVersionByNameLatestStepsBackOrTime() throws Exception {
        List<String> v2 = List.of(
                "version v2",
                "  parent:    v1",
                "  timestamp: 2099-01-02T00:00:00Z",
                "/x: int64 LE [10], chunks [4], 3 stored (96 bytes)",
                "    @unit: string[variable] nullterm utf8 = \"m\"",
                "/grid: float64 LE [3, 5], chunks [2, 2], 6 stored (192 bytes)");
        assertEquals(v2, ok("show", fixture.toString(), "v2"));
        assertEquals(v2, ok("show", fixture.toString(), "~1"));
        assertEquals(v2, ok("show", fixture.toString(), "@2099-01-02T23:59:59Z"));
        assertEquals(v2, ok("show", fixture.toString(), "@2099-01-02T00:00:00"));
        assertEquals("version v3 (current)", ok("show", fixture.toString(), "latest").get(0));
        assertEquals(List.of(
                "version step-1",
                "  parent:    step-0",
                "  timestamp: 2030-01-01T00:01:00Z",
                "/checkpoint: group",
                "    @step: int64 LE = 1",
                "    @ranks: int64 LE = 4",
                "/checkpoint/metadata: group",
                "    @units: string[variable] nullterm utf8 = \"K\"",
                "/data: group",
                "/data/t: float64 LE [8, 8], chunks [4, 4], 2 stored (256 bytes)"),
                ok("show", catalog.toString(), "~1"));
    }

    @Test
    void diffListsTheChangedChunksPerDatasetAndAddedOnes() throws Exception {
        assertEquals(List.of(
                "diff v1 v3",
                "/x: 1 chunks changed",
                "  [0] e36896a9e579 -> 41ace0f7cdbc",
                "/grid: 1 chunks changed",
                "  [2, 4] acf392c295d1 -> a5f37e199d35",
                "/sparse: added in v3"), ok("diff", fixture.toString(), "v1", "latest"));
        assertEquals(List.of("diff v3 v1", "/x: 1 chunks changed", "  [0] 41ace0f7cdbc -> e36896a9e579"),
                ok("diff", fixture.toString(), "latest", "~2", "x"));
        assertEquals(List.of("diff v2 v3", "/grid: 0 chunks changed"),
                ok("diff", fixture.toString(), "v2", "v3", "/grid"));
        // A chunk only one version stores is "fill" in the other; a resize is named.
        List<String> filled = ok("diff", sparse.toString(), "a", "b");
        assertEquals(3, filled.size(), filled.toString());
        assertEquals("/s: 1 chunks changed", filled.get(1));
        assertTrue(filled.get(2).matches("  \\[4\\] fill -> [0-9a-f]{12}"), filled.toString());
        assertEquals(List.of("diff b c", "/s: 1 chunks changed, shape [8] -> [4]",
                filled.get(2).replaceFirst("fill -> (\\w+)", "$1 -> fill")), ok("diff", sparse.toString(), "b", "c"));
        List<String> catalogDiff = ok("diff", catalog.toString(), "step-0", "step-2");
        assertEquals(3, catalogDiff.size(), catalogDiff.toString());
        assertEquals("/data/t: 1 chunks changed", catalogDiff.get(1));
        assertTrue(catalogDiff.get(2).startsWith("  [0, 0] "), catalogDiff.toString());
    }

    @Test
    void deleteRelinksTheRemainingVersionsOfACopy() throws Exception {
        Path copy = Files.copy(fixture, dir.resolve("delete.h5"), StandardCopyOption.REPLACE_EXISTING);
        assertEquals(List.of("deleted v2; current version v3"), ok("delete", copy.toString(), "~1"));
        List<String> after = ok("ls", copy.toString());
        assertEquals(3, after.size(), after.toString());
        assertTrue(after.get(2).startsWith("*v3      v1      2099-01-03T00:00:00Z  3"), after.toString());
        assertEquals(List.of("deleted v1, v3; current version __first_version__"),
                ok("delete", copy.toString(), "v1", "latest"));
        assertEquals(List.of("VERSION  PARENT  TIMESTAMP  DATASETS  CHUNKS  BYTES  SHARED"), ok("ls", copy.toString()));
    }

    @Test
    void errorsAreOneLineStatus1ForDataAnd2ForUsage() throws Exception {
        Path plain = dir.resolve("plain.h5");
        H5Fixtures.write(plain);
        Path damaged = dir.resolve("damaged.h5");
        try (Hdf5File file = Hdf5File.create(damaged)) {
            Group versions = file.root().createGroup("_version_data").createGroup("versions");
            versions.setAttribute(Attribute.scalar("data_version", Datatype.INT64, 4));
            versions.setAttribute(Attribute.of("current_version", "gone"));
        }
        fails(1, "quire versions ls: " + plain + ": damaged versioned data at /_version_data: expected the group"
                + " of a versioned file, found nothing", "ls", plain.toString());
        fails(1, "quire versions ls: " + damaged + ": damaged versioned data at /_version_data/versions"
                + "@current_version: expected the name of a version, found \"gone\"", "ls", damaged.toString());
        fails(1, "quire versions show: " + fixture + " has no version \"v9\"", "show", fixture.toString(), "v9");
        fails(1, "quire versions show: " + fixture + ": 3 versions back from the current one is before the first"
                + " version (3 steps)", "show", fixture.toString(), "~3");
        fails(1, "quire versions show: " + fixture + " has no version committed at or before"
                + " 2098-12-31 23:59:59.000000+0000", "show", fixture.toString(), "@2098-12-31T23:59:59Z");
        fails(1, "quire versions diff: " + fixture + ": neither v1 nor v3 has a dataset nope", "diff",
                fixture.toString(), "v1", "v3", "nope");
        fails(2, "quire versions show: version \"~one\": expected ~ and a number of steps back, like ~1",
                "show", fixture.toString(), "~one");
        fails(2, "quire versions show: version \"@yesterday\": expected an ISO-8601 time after @, like"
                + " @2030-01-01T12:00:00Z", "show", fixture.toString(), "@yesterday");
        fails(2, "quire versions ls: " + dir.resolve("missing.h5") + ": no such file", "ls",
                dir.resolve("missing.h5").toString());
        QuireCommand.Result help = QuireCommand.run(LIMIT, "versions", "diff", "--help");
        assertEquals(0, help.exitCode(), help.toString());
    }

    /** A version of a versions group libhdf5 stores densely (p0 ... p9 by versioned-hdf5) is deleted. */
    @Test
    void aVersionIsDeletedFromAVersionsGroupLibhdf5StoresDensely() throws Exception {
        Path python = RequiredTool.requireWorking(Path.of("/usr/bin/python3"), "python3-h5py",
                "-c", "import h5py");
        Path ten = dir.resolve("ten.h5");
        QuireCommand.Result create = QuireCommand.runProcess(new ProcessBuilder(python.toString(),
                QuireCommand.repositoryRoot().resolve("format/src/test/resources/hdf5/versioned_interop.py")
                        .toString(), "create", ten.toString(), "10"), LIMIT);
        assertEquals(0, create.exitCode(), create.toString());
        assertEquals(11, ok("ls", ten.toString()).size(), "a header and p0 ... p9");
        ok("delete", ten.toString(), "p1");
        List<String> left = ok("ls", ten.toString());
        assertEquals(10, left.size(), left.toString());
        assertTrue(left.stream().noneMatch(line -> line.startsWith("p1 ")), left.toString());
    }

    /** Damage met after the first lines are decided prints none of them. */
    @Test
    void damageFoundHalfWayPrintsNothingOnStandardOutput() throws Exception {
        Path broken = Files.copy(sparse, dir.resolve("broken.h5"), StandardCopyOption.REPLACE_EXISTING);
        try (Hdf5File file = Hdf5File.openForWriting(broken)) {
            file.root().group("_version_data").group("s").delete("hash_table");
        }
        fails(1, "quire versions show: " + broken + ": damaged versioned data at /_version_data/s/hash_table:"
                + " expected a dataset (the store every versioned dataset has), found nothing",
                "show", broken.toString(), "b");
    }

    private static List<String> ok(String... args) throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, command(args));
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr(), result.toString());
        return result.stdoutLines();
    }

    private static void fails(int status, String line, String... args) throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, command(args));
        assertEquals(status, result.exitCode(), result.toString());
        assertEquals("", result.stdout(), result.toString());
        List<String> errors = result.stderr().lines().toList();
        assertEquals(line, errors.get(0), result.toString());
        assertEquals(status == 2 ? 2 : 1, errors.size(), result.toString());
    }

    private static String[] command(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "versions";
        System.arraycopy(args, 0, command, 1, args.length);
        return command;
    }
}
