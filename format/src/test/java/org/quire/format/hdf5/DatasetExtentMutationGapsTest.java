package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Dataset#setExtent} at its limits, read back in the JVM after the file is closed and
 * opened again: cuts exactly on a chunk edge, one element inside a chunk, the default fill value
 * 0, the maximum shape exactly, and the refusals with their messages. The expected values are
 * worked out here element by element (kept inside the smallest shape, fill value outside).
 */
class DatasetExtentMutationGapsTest {

    private static final int ROWS = 8;
    private static final int COLUMNS = 6;

    @TempDir
    Path dir;

    private static long[] original() {
        long[] values = new long[ROWS * COLUMNS];
        for (int i = 0; i < values.length; i++) {
            values[i] = 100 + i;
        }
        return values;
    }

    /** ROWS x COLUMNS values, those outside keptRows x keptColumns {@code fill}. */
    private static long[] kept(int keptRows, int keptColumns, long fill) {
        long[] values = original();
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLUMNS; c++) {
                if (r >= keptRows || c >= keptColumns) {
                    values[r * COLUMNS + c] = fill;
                }
            }
        }
        return values;
    }

    private long[] shrinkGrowAndReopen(String name, DatasetSpec spec, long rows, long columns)
            throws IOException {
        Path path = dir.resolve(name);
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", spec);
            d.write(new long[] {0, 0}, new long[] {ROWS, COLUMNS}, original());
            d.setExtent(rows, columns);
            assertArrayEquals(new long[] {rows, columns}, d.shape());
            d.setExtent(ROWS, COLUMNS);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.root().dataset("d").readLongs(new long[] {0, 0},
                    new long[] {ROWS, COLUMNS});
        }
    }

    private static DatasetSpec.Builder chunked(long... maxShape) {
        return DatasetSpec.builder(Datatype.INT64, ROWS, COLUMNS).maxShape(maxShape)
                .chunkShape(4, 3);
    }

    @Test
    void cutsOnChunkEdgesAndOneElementInsideReadAsTheFillValue() throws IOException {
        DatasetSpec filled = chunked(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED)
                .fillValue(-7L).build();
        // On the edges of the 4 x 3 chunks: the chunks beyond hold the fill value whole.
        assertArrayEquals(kept(4, 3, -7), shrinkGrowAndReopen("edges.h5", filled, 4, 3));
        // One element inside the last chunk row and column.
        assertArrayEquals(kept(7, 5, -7), shrinkGrowAndReopen("inside.h5", filled, 7, 5));
        // One dimension only, to 1 row.
        assertArrayEquals(kept(1, COLUMNS, -7),
                shrinkGrowAndReopen("rows.h5", filled, 1, COLUMNS));
        // Without a fill value: zeros.
        assertArrayEquals(kept(5, 2, 0), shrinkGrowAndReopen("zeros.h5",
                chunked(ROWS, COLUMNS).build(), 5, 2));
        // To nothing in one dimension.
        assertArrayEquals(kept(0, COLUMNS, -7),
                shrinkGrowAndReopen("empty.h5", filled, 0, COLUMNS));
    }

    @Test
    void sizesUpToTheMaximumAreAcceptedAndBeyondItRefused() throws IOException {
        Path path = dir.resolve("limits.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", chunked(10, COLUMNS).build());
            d.setExtent(10, COLUMNS);
            assertArrayEquals(new long[] {10, COLUMNS}, d.shape());
            assertEquals(path + ": cannot resize /d from [10, 6] to [11, 6] (maximum [10, 6])", assertThrows(
                    IllegalArgumentException.class, () -> d.setExtent(11, COLUMNS))
                    .getMessage());
            assertEquals(path + ": cannot resize /d from [10, 6] to [-1, 6] (maximum [10, 6])", assertThrows(
                    IllegalArgumentException.class, () -> d.setExtent(-1, COLUMNS))
                    .getMessage());
            assertEquals(path + ": /d: rank 1, dataset has 2", assertThrows(IllegalArgumentException.class,
                    () -> d.setExtent(10)).getMessage());
            assertEquals(path + ": cannot extend /d from [10, 6] to [9, 6] (maximum [10, 6])", assertThrows(
                    IllegalArgumentException.class, () -> d.extend(9, COLUMNS)).getMessage());
            d.setExtent(0, 0);
            assertArrayEquals(new long[] {0, 0}, d.shape());
        }
    }

    @Test
    void whileSwmrWritingADatasetGrowsButDoesNotShrink() throws IOException {
        Path path = dir.resolve("swmr.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d",
                    chunked(DatasetSpec.UNLIMITED, COLUMNS).build());
            file.startSwmrWrite();
            d.setExtent(ROWS + 4, COLUMNS);
            assertArrayEquals(new long[] {ROWS + 4, COLUMNS}, d.shape());
            assertThrows(SwmrWriteRefusedException.class, () -> d.setExtent(ROWS + 3, COLUMNS));
            assertArrayEquals(new long[] {ROWS + 4, COLUMNS}, d.shape());
        }
    }

    @Test
    void aContiguousOrReadOnlyDatasetIsNotResized() throws IOException {
        Path path = dir.resolve("contiguous.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("c", Datatype.INT64, new long[] {4}, new byte[32]);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> file.root().dataset("c").setExtent(2));
            assertEquals(path + ": /c is contiguous, not chunked", e.getMessage());
            file.root().createDataset("d", chunked(ROWS, COLUMNS).build());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset d = file.root().dataset("d");
            assertThrows(IllegalStateException.class, () -> d.setExtent(1, 1));
            assertArrayEquals(new long[] {ROWS, COLUMNS}, d.shape());
        }
    }
}
