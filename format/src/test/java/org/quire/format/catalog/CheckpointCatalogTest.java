package org.quire.format.catalog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.sion.SionSerialWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.format.versioned.VersionedFile;

/** Checkpoints committed as versions and picked for a restart; SION containers checked on restart. */
class CheckpointCatalogTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final DatasetSpec FIELD = DatasetSpec.builder(Datatype.FLOAT64, 8, 8).chunkShape(4, 4).build();

    @TempDir
    Path dir;

    @Test
    void restartPicksLatestANameStepsBackOrATimeWithStepRanksMetadataAndData() throws IOException {
        Path catalogFile = dir.resolve("catalog.h5");
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            for (int step = 0; step < 3; step++) {
                catalog.commit(Checkpoint.builder("step-" + step * 10, step * 10L, 4 + step)
                        .dataset("t", FIELD, field(step))
                        .metadata(Attribute.of("dt", 0.5 * (step + 1)))
                        .metadata(Attribute.of("code", "heat"))
                        .timestamp(T0.plusSeconds(3600L * step))
                        .build());
            }
        }
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            assertEquals(List.of("step-0", "step-10", "step-20"),
                    catalog.entries().stream().map(CatalogEntry::version).toList());
            CatalogEntry latest = catalog.restart("latest");
            assertEquals("step-20", latest.version());
            assertEquals(20, latest.step());
            assertEquals(6, latest.ranks());
            assertEquals(T0.plusSeconds(7200), latest.timestamp());
            assertArrayEquals(new double[] {1.5}, latest.metadata().get("dt").doubles());
            assertEquals("heat", latest.metadata().get("code").string());
            assertEquals(List.of("t"), latest.datasets());
            assertNull(latest.sionContainer());
            assertEquals("step-0", catalog.restart("~2").version());
            assertEquals("step-10", catalog.restart("step-10").version());
            assertEquals("step-10", catalog.restart("@2030-01-01T01:59:59Z").version());
            assertEquals("step-20", catalog.restart("@2030-01-01T02:00:00Z").version());
            CatalogEntry middle = catalog.restart("~1");
            assertEquals(5, middle.ranks());
            assertArrayEquals(doubles(field(1)), catalog.dataset(middle, "t")
                    .readDoubles(new long[] {0, 0}, new long[] {8, 8}));
            assertThrows(NoSuchElementException.class, () -> catalog.restart("~3"));
            assertThrows(NoSuchElementException.class, () -> catalog.restart("@2029-12-31T23:59:59Z"));
            assertThrows(NoSuchElementException.class, () -> catalog.restart("step-5"));
            assertThrows(IllegalArgumentException.class, () -> catalog.restart("~one"));
        }
    }

    @Test
    void checkpointsAfterARestartDescendFromTheCheckpointItPicked() throws IOException {
        Path catalogFile = dir.resolve("catalog.h5");
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            catalog.commit(Checkpoint.builder("a", 1, 1).dataset("t", FIELD, field(0)).build());
            catalog.commit(Checkpoint.builder("b", 2, 1).dataset("t", FIELD, field(1)).build());
            catalog.restart("a");
            catalog.commit(Checkpoint.builder("a2", 2, 1).dataset("t", FIELD, field(2)).build());
            catalog.commit(Checkpoint.builder("a3", 3, 1).dataset("t", FIELD, field(3)).build());
        }
        try (VersionedFile versions = VersionedFile.open(catalogFile)) {
            assertEquals("a", versions.version("b").parent());
            assertEquals("a", versions.version("a2").parent());
            assertEquals("a2", versions.version("a3").parent());
            assertEquals("a3", versions.currentVersion());
        }
    }

    @Test
    void anUnchangedQuarterOfTheFieldIsStoredOnceAndAVersionHoldsOnlyItsCheckpoint() throws IOException {
        Path catalogFile = dir.resolve("catalog.h5");
        byte[] first = field(0);
        byte[] second = first.clone();
        ByteBuffer.wrap(second).order(ByteOrder.LITTLE_ENDIAN).putDouble(0, -7.0); // chunk [0, 0] only
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            catalog.commit(Checkpoint.builder("a", 1, 2).dataset("t", FIELD, first)
                    .dataset("extra", FIELD, field(5)).build());
            CatalogEntry b = catalog.commit(Checkpoint.builder("b", 2, 2).dataset("t", FIELD, second).build());
            assertEquals(List.of("t"), b.datasets());
            assertEquals(0, b.metadata().size());
        }
        try (VersionedFile versions = VersionedFile.open(catalogFile)) {
            var a = versions.storedChunks("a", "data/t");
            var b = versions.storedChunks("b", "data/t");
            assertEquals(4, a.slots().size());
            assertEquals(3, b.slots().stream().filter(a.slots()::contains).count());
            assertEquals(1, versions.diff("data/t", "a", "b").size());
            assertEquals(List.of("checkpoint", "checkpoint/metadata", "data"), versions.groupNames("b"));
        }
    }

    @Test
    void aSionContainerIsIdentifiedAndARestartRefusesItOnceRewrittenOrMissing() throws IOException {
        Path sion = dir.resolve("run/ckpt.sion");
        Files.createDirectories(sion.getParent());
        writeSion(sion, 3, (byte) 1);
        Path catalogFile = dir.resolve("run/catalog.h5");
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            CatalogEntry entry = catalog.commit(Checkpoint.builder("s1", 100, 3).sionContainer(sion).build());
            assertEquals(1, entry.sionContainer().files());
            assertEquals(3, entry.sionContainer().tasks());
            assertEquals(Files.size(sion), entry.sionContainer().bytes());
            assertEquals(sion.toAbsolutePath().normalize(), catalog.restart("s1").sionContainer().path());
        }
        // Moved together with its catalog, the container is still found (stored relative).
        Path moved = dir.resolve("moved");
        Files.move(dir.resolve("run"), moved);
        try (CheckpointCatalog catalog = CheckpointCatalog.open(moved.resolve("catalog.h5"))) {
            assertEquals(moved.resolve("ckpt.sion").toAbsolutePath(), catalog.restart("latest").sionContainer().path());
            writeSion(moved.resolve("ckpt.sion"), 3, (byte) 2);   // same size, other bytes
            CheckpointContainerChangedException changed = assertThrows(CheckpointContainerChangedException.class,
                    () -> catalog.restart("latest"));
            assertEquals(moved.resolve("ckpt.sion").toAbsolutePath(), changed.file());
            assertTrue(changed.detail().startsWith("the SION container changed since it was catalogued:"
                    + " expected 1 files, 3 tasks, " + Files.size(moved.resolve("ckpt.sion")) + " bytes, SHA-256 "),
                    changed.detail());
            Files.delete(moved.resolve("ckpt.sion"));
            changed = assertThrows(CheckpointContainerChangedException.class, () -> catalog.restart("latest"));
            assertTrue(changed.detail().endsWith(") is missing"), changed.detail());
        }
    }

    @Test
    void aVersionNotWrittenByTheCatalogIsRefusedByName() throws IOException {
        Path catalogFile = dir.resolve("catalog.h5");
        try (VersionedFile versions = VersionedFile.create(catalogFile)) {
            versions.commit("plain", v -> v.createDataset("x", FIELD, field(0)));
        }
        try (CheckpointCatalog catalog = CheckpointCatalog.open(catalogFile)) {
            NotACheckpointException e = assertThrows(NotACheckpointException.class, () -> catalog.restart("latest"));
            assertEquals(catalogFile + ": version \"plain\" is not a checkpoint: checkpoint is not a group",
                    e.getMessage());
            // A checkpoint committed on top of it holds nothing of it.
            catalog.commit(Checkpoint.builder("c", 1, 1).dataset("t", FIELD, field(1)).build());
        }
        try (VersionedFile versions = VersionedFile.open(catalogFile)) {
            assertEquals("plain", versions.version("c").parent());
            assertEquals(List.of("data/t"), versions.datasetNames("c"));
        }
    }

    @Test
    void aCheckpointNeedsAContainerOrDatasetsAndAnEmptyCatalogHasNoLatest() throws IOException {
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.builder("x", 1, 1).build());
        assertThrows(IllegalArgumentException.class, () -> Checkpoint.builder("x", 1, 0));
        try (CheckpointCatalog catalog = CheckpointCatalog.open(dir.resolve("empty.h5"))) {
            NoSuchElementException e = assertThrows(NoSuchElementException.class, () -> catalog.restart("latest"));
            assertEquals(dir.resolve("empty.h5") + ": no version latest: nothing committed yet", e.getMessage());
        }
    }

    /** An 8 x 8 float64 field, element (i, j) = 100 * step + 8 i + j, little-endian. */
    private static byte[] field(int step) {
        ByteBuffer bytes = ByteBuffer.allocate(64 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            bytes.putDouble(100.0 * step + i);
        }
        return bytes.array();
    }

    private static double[] doubles(byte[] bytes) {
        double[] values = new double[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        return values;
    }

    /** A closed single-file SION container of {@code tasks} tasks, 100 bytes of {@code value} each. */
    private static void writeSion(Path file, int tasks, byte value) throws IOException {
        long[] chunks = new long[tasks];
        long[] ranks = new long[tasks];
        for (int task = 0; task < tasks; task++) {
            chunks[task] = 128;
            ranks[task] = task;
        }
        Files.deleteIfExists(file);
        try (SionSerialWriter writer = SionSerialWriter.create(file, chunks, ranks, 64, SionWriteOptions.defaults())) {
            for (int task = 0; task < tasks; task++) {
                writer.selectTask(task);
                byte[] data = new byte[100];
                Arrays.fill(data, value);
                writer.write(data);
            }
        }
    }
}
