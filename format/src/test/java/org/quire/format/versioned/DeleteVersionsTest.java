package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.versioned.VersionedFileTest.DAY;
import static org.quire.format.versioned.VersionedFileTest.int64;
import static org.quire.format.versioned.VersionedFileTest.rawRows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;

/** Behaviour 13 and delete_versions' compaction (reference note §2). */
class DeleteVersionsTest {

    @TempDir
    Path dir;

    /** r0 ... r10, each a chain step; r{i} sets x[i] = 100 + i (x of 11 elements, chunks (4,), fill -7). */
    Path chain(Map<String, long[]> values) throws IOException {
        Path path = dir.resolve("chain.h5");
        long[] x = LongStream.range(0, 11).toArray();
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("r0", "", DAY, v -> v.createDataset("x", DatasetSpec.builder(Datatype.INT64, 11)
                    .chunkShape(4).fillValue(-7L).build(), int64(x)));
            values.put("r0", x.clone());
            for (int i = 1; i <= 10; i++) {
                int step = i;
                x[i] = 100 + i;
                vf.commit("r" + i, "r" + (i - 1), DAY.plusSeconds(i), v -> v.dataset("x")
                        .write(new long[] {step}, new long[] {1}, new long[] {100 + step}));
                values.put("r" + i, x.clone());
            }
        }
        return path;
    }

    @Test
    void behaviour13DeletingVersionsRelinksParentsAndKeepsValues() throws IOException {
        Map<String, long[]> values = new HashMap<>();
        Path path = chain(values);
        long before = rawRows(path, "x");
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("r1", "r5", "r8");
            assertEquals("r0", vf.version("r2").parent());
            assertEquals("r4", vf.version("r6").parent());
            assertEquals("r7", vf.version("r9").parent());
            assertEquals("r10", vf.currentVersion());
            assertThrows(NoSuchElementException.class, () -> vf.version("r5"));
            for (VersionInfo version : vf.versions()) {
                assertArrayEquals(values.get(version.name()), vf.dataset(version.name(), "x")
                        .readLongs(new long[] {0}, new long[] {11}), version.name());
            }
            assertEquals(3 + 10 - 3, vf.verify(), "3 chunks of r0, one new per step, less the three only r1, r5, r8 showed");
        }
        // r1 (x[1]), r5 (x[5]) and r8 (x[8]) each had a chunk no survivor shows.
        assertEquals(before - 3 * 4, rawRows(path, "x"));
    }

    @Test
    void deletingTheCurrentVersionMakesItsParentCurrentAndResetsEdgePadding() throws IOException {
        Map<String, long[]> values = new HashMap<>();
        Path path = chain(values);
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("r10", "r0");
            assertEquals("r9", vf.currentVersion());
            assertEquals("__first_version__", vf.version("r1").parent());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            var store = file.root().group("_version_data").group("x");
            var table = store.dataset("hash_table");
            long slots = table.attribute("largest_index").longs()[0];
            long[] raw = store.dataset("raw_data").readLongs(new long[] {0}, new long[] {slots * 4});
            java.nio.ByteBuffer rows = table.read(new long[] {0}, new long[] {slots});
            int edges = 0;
            for (int i = 0; i < slots; i++) {
                HashTableLayout.Row row = HashTableLayout.decode(rows, i);
                assertEquals(i * 4L, row.start());
                if (row.stop() - row.start() == 3) {
                    edges++;
                    assertEquals(-7, raw[(int) row.start() + 3], "padding of the moved edge chunk");
                }
            }
            assertEquals(3, edges, "x[8:11] as r0-r7, r8, r9 have it");
        }
    }

    @Test
    void aDatasetNoRemainingVersionHasLosesItsStore() throws IOException {
        Path path = dir.resolve("gone.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("a", "", DAY, v -> v.createDataset("grp/t", DatasetSpec.builder(Datatype.INT64, 4)
                    .chunkShape(2).build(), int64(1, 2, 3, 4)));
            vf.commit("b", "a", DAY.plusSeconds(1), v -> v.delete("grp"));
            vf.deleteVersions("a");
            assertEquals(List.of(), vf.datasetNames("b"));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertFalse(file.root().group("_version_data").group("grp").contains("t"));
        }
    }

    /**
     * A versions group libhdf5 stores densely (versioned-hdf5 with {@code libver="latest"}: p0 ...
     * p9) loses a version: its links move into the group's header first, as libhdf5 does when a
     * dense group shrinks; the rest reads and verifies, the child is relinked.
     */
    @Test
    @StartsOutsideProgram
    void aVersionIsDeletedFromAVersionsGroupLibhdf5StoresDensely() throws IOException {
        org.quire.format.hdf5.ExternalTools.requireH5py();
        Path path = dir.resolve("ten.h5");
        VersionedInteropTest.client("create", path.toString(), "10");
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.deleteVersions("p1");
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals(9, vf.versions().size());
            assertEquals("p0", vf.version("p2").parent());
            vf.verify();
            assertArrayEquals(new long[] {0, 101, 102, 3}, vf.dataset("p2", "x").readLongs(new long[] {0},
                    new long[] {4}));
        }
    }
}
