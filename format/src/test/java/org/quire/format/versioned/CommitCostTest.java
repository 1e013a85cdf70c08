package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.storage.TrackingOpener;

/**
 * A commit costs what changed (issue 11): of a dataset of N chunks, a commit changing k hashes
 * k chunks, writes about k chunks' bytes, and visits the N chunks it maps (its metadata: one
 * virtual-dataset mapping each, as versioned-hdf5 writes) but never the chunks of a sparse
 * dataset nobody wrote.
 */
class CommitCostTest {

    private static final int ELEMENTS = 4096;
    private static final long CHUNK_BYTES = ELEMENTS * 8L;

    @TempDir
    Path dir;

    @Test
    void changingThreeOfSixtyFourChunksHashesAndWritesThreeAndMapsSixtyFour() throws IOException {
        Path path = dir.resolve("dense.h5");
        int chunks = 64;
        long[] values = LongStream.range(0, chunks * (long) ELEMENTS).toArray();
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> v.createDataset("x",
                    DatasetSpec.builder(Datatype.INT64, values.length).chunkShape(ELEMENTS).build(),
                    VersionedFileTest.int64(values)));
            assertEquals(new CommitCounts(chunks, chunks), vf.lastCommitCounts());
        }
        TrackingOpener opener = new TrackingOpener();
        long[] changed = {3 * ELEMENTS + 1, 30 * ELEMENTS, 63 * ELEMENTS + 4095};
        try (VersionedFile vf = VersionedFile.openForWriting(path, opener)) {
            opener.resetCounts();
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> {
                for (long at : changed) {
                    v.dataset("x").write(new long[] {at}, new long[] {1}, new long[] {-at});
                }
            });
            long written = opener.counts(path).bytesWritten();
            assertEquals(new CommitCounts(chunks, changed.length), vf.lastCommitCounts());
            assertTrue(written >= changed.length * CHUNK_BYTES
                    && written < (changed.length + 1) * CHUNK_BYTES, "the commit wrote " + written
                    + " bytes for " + changed.length + " chunks of " + CHUNK_BYTES);
            for (long at : changed) {
                values[(int) at] = -at;
            }
            assertArrayEquals(values, VersionedFileTest.read(vf, "v2", "x"));
        }
    }

    @Test
    void aCommitToASparseDatasetVisitsTheChunksItMapsNotItsWholeGrid() throws IOException {
        Path path = dir.resolve("sparse.h5");
        long gridChunks = 1_000_000;
        DatasetSpec spec = DatasetSpec.builder(Datatype.INT64, gridChunks * 4).chunkShape(4)
                .fillValue(-1L).build();
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> {
                StagedDataset x = v.createDataset("x", spec, null);
                x.write(new long[] {8}, new long[] {2}, new long[] {8, 9});
                x.write(new long[] {400_000}, new long[] {1}, new long[] {400_000});
            });
            assertEquals(new CommitCounts(2, 2), vf.lastCommitCounts());
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> v.dataset("x")
                    .write(new long[] {3_999_999}, new long[] {1}, new long[] {7}));
            assertEquals(new CommitCounts(3, 1), vf.lastCommitCounts());
            assertArrayEquals(new long[] {-1, 8, 9, -1}, vf.dataset("v2", "x")
                    .readLongs(new long[] {7}, new long[] {4}));
            assertArrayEquals(new long[] {400_000, -1, 7}, new long[] {
                    vf.dataset("v2", "x").readLongs(new long[] {400_000}, new long[] {1})[0],
                    vf.dataset("v2", "x").readLongs(new long[] {3_999_998}, new long[] {1})[0],
                    vf.dataset("v2", "x").readLongs(new long[] {3_999_999}, new long[] {1})[0]});
        }
        assertEquals(3, VersionedFileTest.mappings(path, "v2", "x").size());
    }
}
