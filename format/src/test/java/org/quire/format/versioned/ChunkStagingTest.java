package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;
import org.quire.format.storage.TrackingOpener;

/**
 * A staged dataset holds only the chunks a change touches (issue 11): a change costs the
 * chunks it touches, in memory and in reads of the parent version, not the whole dataset.
 */
class ChunkStagingTest {

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void aOneElementWriteIntoASparseDatasetOfThreeGibibytesCommits() throws IOException {
        ExternalTools.requireH5py();
        Path path = dir.resolve("sparse.h5");
        long elements = 3L << 27; // 3 GiB of int64, past what one byte[] holds
        long at = 300_000_007L;
        DatasetSpec spec = DatasetSpec.builder(Datatype.INT64, elements).chunkShape(1 << 20)
                .fillValue(-1L).build();
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> v.createDataset("x", spec, null));
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1),
                    v -> v.dataset("x").write(new long[] {at}, new long[] {1}, new long[] {42}));
            assertArrayEquals(new long[] {-1, 42, -1},
                    vf.dataset("v2", "x").readLongs(new long[] {at - 1}, new long[] {3}));
            assertArrayEquals(new long[] {-1},
                    vf.dataset("v1", "x").readLongs(new long[] {at}, new long[] {1}));
        }
        assertEquals(1 << 20, VersionedFileTest.rawRows(path, "x"), "one slot, for the one chunk written");
        assertEquals(1, VersionedFileTest.mappings(path, "v2", "x").size());
        ExternalTools.Result h5py = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(), "-c",
                "import h5py, sys\n"
                        + "x = h5py.File(sys.argv[1], 'r')['_version_data/versions/v2/x']\n"
                        + "print(x.shape[0], x[" + (at - 1) + "], x[" + at + "], x[" + (at + 1)
                        + "], x[0])",
                path.toString()), 120);
        assertEquals(0, h5py.exitCode(), h5py.output());
        assertEquals(elements + " -1 42 -1 -1", h5py.stdout().strip());
    }

    @Test
    void changingOneChunkReadsOnlyThatChunkOfTheParent() throws IOException {
        Path path = dir.resolve("reads.h5");
        int chunks = 64;
        long[] values = LongStream.range(0, chunks * 4096L).toArray();
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> v.createDataset("x",
                    DatasetSpec.builder(Datatype.INT64, values.length).chunkShape(4096).build(),
                    VersionedFileTest.int64(values)));
        }
        TrackingOpener opener = new TrackingOpener();
        long[] reads = new long[2];
        try (VersionedFile vf = VersionedFile.openForWriting(path, opener)) {
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> {
                opener.resetCounts();
                v.dataset("x").write(new long[] {5000}, new long[] {1}, new long[] {-5});
                reads[0] = opener.counts(path).reads();
            });
            vf.commit("v3", "v2", VersionedFileTest.DAY.plusSeconds(2), v -> {
                opener.resetCounts();
                v.dataset("x").read(new long[] {0}, new long[] {values.length});
                reads[1] = opener.counts(path).reads();
            });
            values[5000] = -5;
            assertArrayEquals(values, VersionedFileTest.read(vf, "v2", "x"));
        }
        assertTrue(reads[0] >= 1 && reads[0] * 8 <= reads[1], "a one-chunk change made " + reads[0]
                + " reads; reading all " + chunks + " chunks made " + reads[1]);
    }

    @Test
    void elementsCutByAShrinkReadAsFillAfterGrowingAgain() throws IOException {
        Path path = dir.resolve("resize.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> v.createDataset("x",
                    VersionedFileTest.x10(),
                    VersionedFileTest.int64(LongStream.range(0, 10).toArray())));
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> {
                StagedDataset x = v.dataset("x");
                x.write(new long[] {1}, new long[] {1}, new long[] {11});
                x.resize(2);
                x.resize(6);
                x.resize(10);
                assertArrayEquals(VersionedFileTest.int64(0, 11, -7, -7, -7, -7, -7, -7, -7, -7),
                        x.read(new long[] {0}, new long[] {10}));
            });
            vf.commit("v3", "v1", VersionedFileTest.DAY.plusSeconds(2), v -> {
                v.dataset("x").resize(5);
                v.dataset("x").resize(9);
            });
            assertArrayEquals(new long[] {0, 11, -7, -7, -7, -7, -7, -7, -7, -7},
                    VersionedFileTest.read(vf, "v2", "x"));
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, -7, -7, -7, -7},
                    VersionedFileTest.read(vf, "v3", "x"));
        }
    }
}
