package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.StartsOutsideProgram;

/**
 * An SWMR reader keeps its dataset's chunk index blocks across refreshes and compares each with
 * the file before using it again (docs/swmr.md, "Reading"): it must never serve an index entry
 * the writer changed in place since. Quire's SWMR writer and reader in one process, in lock
 * step: after every flush the reader refreshes and reads every element, old ones first (through
 * the blocks it holds) then the new ones. Each flush grows the index (extensible array data
 * blocks and super blocks, fixed array pages, v2 B-tree leaf splits and an internal root, skip
 * list supernodes and its tail) and rewrites an element the reader already read: in place for
 * unfiltered chunks, a deflated chunk moves to new space and its index entry changes.
 */
class SwmrReaderIndexCacheTest {

    private static final int FLUSHES = 60;
    private static final int ROWS_PER_FLUSH = 7;

    @TempDir
    Path dir;

    /** A dataset spec and how many of its elements one row holds (its second dimension). */
    private record Workload(String name, DatasetSpec spec, int width) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> workloads() {
        long unlimited = DatasetSpec.UNLIMITED;
        return Stream.of(
                new Workload("extensible array (data blocks, super blocks)", DatasetSpec.builder(
                        Datatype.INT64, 0).maxShape(unlimited).chunkShape(1).build(), 1),
                new Workload("extensible array, deflated chunks that move", DatasetSpec.builder(
                        Datatype.INT64, 0).maxShape(unlimited).chunkShape(2)
                        .filter(Filter.deflate(1)).build(), 1),
                new Workload("fixed array (pages)", DatasetSpec.builder(Datatype.INT64, 0)
                        .maxShape(5_000).chunkShape(1).build(), 1),
                new Workload("v2 B-tree (leaf splits, internal root)", DatasetSpec.builder(
                        Datatype.INT64, 0, 2).maxShape(unlimited, unlimited).chunkShape(1, 1)
                        .build(), 2),
                new Workload("v2 B-tree, deflated chunks that move", DatasetSpec.builder(
                        Datatype.INT64, 0, 2).maxShape(unlimited, unlimited).chunkShape(2, 1)
                        .filter(Filter.deflate(1)).build(), 2),
                new Workload("skip list (supernodes, tail)", DatasetSpec.builder(
                        Datatype.INT64, 0).maxShape(unlimited).chunkShape(1)
                        .quireOnlySkipListIndex().build(), 1))
                .map(Arguments::of);
    }

    /** Element {@code e} as written in round {@code round} (rewritten elements change). */
    private static long value(long e, int round) {
        return e * 1_000 + round;
    }

    @ParameterizedTest
    @MethodSource("workloads")
    void aRefreshedReaderNeverServesAnIndexEntryTheWriterChanged(Workload workload)
            throws IOException {
        Path path = dir.resolve("follow.h5");
        int width = workload.width();
        try (Hdf5File writer = Hdf5File.create(path)) {
            Dataset written = writer.root().createDataset("d", workload.spec());
            writer.startSwmrWrite();
            try (Hdf5File reader = Hdf5File.openSwmr(path)) {
                Dataset read = reader.root().dataset("d");
                long[] expected = new long[FLUSHES * ROWS_PER_FLUSH * width];
                long rows = 0;
                for (int round = 1; round <= FLUSHES; round++) {
                    long newRows = rows + ROWS_PER_FLUSH;
                    written.extend(shape(newRows, width));
                    long[] fresh = new long[ROWS_PER_FLUSH * width];
                    for (int i = 0; i < fresh.length; i++) {
                        long e = rows * width + i;
                        fresh[i] = value(e, round);
                        expected[(int) e] = fresh[i];
                    }
                    written.write(start(rows, width), shape(ROWS_PER_FLUSH, width), fresh);
                    if (rows > 0) { // an element the reader read last round, rewritten
                        long row = (round * 31L) % rows;
                        long[] again = new long[width];
                        for (int c = 0; c < width; c++) {
                            again[c] = value(row * width + c, round);
                            expected[(int) (row * width + c)] = again[c];
                        }
                        written.write(start(row, width), shape(1, width), again);
                    }
                    writer.flush();
                    rows = newRows;

                    read.refresh();
                    assertArrayEquals(shape(rows, width), read.shape(), "round " + round);
                    long[] all = read.readLongs(start(0, width), shape(rows, width));
                    long[] want = Arrays.copyOf(expected, (int) (rows * width));
                    assertArrayEquals(want, all, workload + ", round " + round);
                }
                assertEquals(FLUSHES * ROWS_PER_FLUSH, read.shape()[0]);
            }
        }
    }

    /**
     * libhdf5's SWMR writer (h5py, {@code swmr_writer.py grid}) on v2 B-trees: after each flush
     * (new rows, a row rewritten, its gzip chunk compressing otherwise and moving) the reader,
     * holding the nodes of its last view, reads every row of both datasets. libhdf5 1.10.8 gave
     * each changed node new space here, so the reader keeps the nodes left alone and reads the
     * moved ones through the reopened tree.
     */
    @Test
    @StartsOutsideProgram
    void aReaderFollowingLibhdf5ReadsEveryRowThroughTheNodesItKept() throws Exception {
        Path path = dir.resolve("grid.h5");
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(path, "grid")) {
            writer.append(1);
            try (Hdf5File reader = Hdf5File.openSwmr(path)) {
                Dataset[] grids = {reader.root().dataset("grid"),
                        reader.root().dataset("packedgrid")};
                long[] expected = new long[2 * 150];
                long rows = 1;
                expected[0] = 1;
                expected[1] = 2;
                for (int round = 1; rows < 150; round++) {
                    int more = 1 + round % 4;
                    for (long r = rows; r < rows + more; r++) {
                        expected[(int) (2 * r)] = 3 * r + 1;
                        expected[(int) (2 * r + 1)] = 3 * r + 2;
                    }
                    rows = writer.append(more);
                    long again = (round * 7L) % rows;
                    long value = round * 0x9E3779B97F4A7C15L; // compresses otherwise: moves
                    writer.command("rewrite " + again + " " + value, "rewritten");
                    expected[(int) (2 * again)] = value;
                    expected[(int) (2 * again + 1)] = value;
                    reader.refresh();
                    for (Dataset grid : grids) {
                        assertArrayEquals(new long[] {rows, 2}, grid.shape(), grid.path());
                        assertArrayEquals(Arrays.copyOf(expected, (int) (2 * rows)),
                                grid.readLongs(new long[] {0, 0}, new long[] {rows, 2}),
                                grid.path() + ", round " + round);
                    }
                }
            }
            writer.closeFile();
        }
    }

    /** {@code {rows}} for a dataset of one dimension, {@code {rows, width}} for two. */
    private static long[] shape(long rows, int width) {
        return width == 1 ? new long[] {rows} : new long[] {rows, width};
    }

    /** The first element of row {@code row}. */
    private static long[] start(long row, int width) {
        return width == 1 ? new long[] {row} : new long[] {row, 0};
    }
}
