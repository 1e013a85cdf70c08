package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * {@link Dataset#setExtent}: chunked datasets of every index Quire writes for a resizable
 * dataset (fixed array, extensible array, version-2 B-tree; one deflated) shrunk in both
 * dimensions through partial and whole chunks and grown again: the kept elements read as
 * before, the cut-off ones as the fill value, for Quire and for h5py; and a dataset h5py wrote,
 * shrunk by Quire, grown again by h5py.
 */
@StartsOutsideProgram
class DatasetResizeTest {

    private static final long FILL = -1;

    @TempDir
    Path dir;

    @Test
    void shrunkAndGrownAgainTheCutOffElementsReadAsTheFillValue() throws IOException {
        Path path = dir.resolve("resized.h5");
        List<DatasetSpec> specs = List.of(
                spec(20, 20).build(),
                spec(DatasetSpec.UNLIMITED, 7).build(),
                spec(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED).build(),
                spec(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED).filter(Filter.deflate(4))
                        .build());
        long[] original = new long[70];
        Arrays.setAll(original, i -> i);
        try (Hdf5File file = Hdf5File.create(path)) {
            for (int i = 0; i < specs.size(); i++) {
                Dataset d = file.root().createDataset("d" + i, specs.get(i));
                d.write(new long[] {0, 0}, new long[] {10, 7}, original);
                d.setExtent(5, 4);          // through partial chunks in both dimensions
                assertArrayEquals(new long[] {5, 4}, d.shape());
                assertArrayEquals(cut(original, 5, 4, 5, 4),
                        d.readLongs(new long[] {0, 0}, new long[] {5, 4}), "d" + i);
                d.setExtent(1, 7);          // shrinks one dimension, grows the other
                d.setExtent(10, 7);
                assertArrayEquals(cut(original, 1, 4, 10, 7),
                        d.readLongs(new long[] {0, 0}, new long[] {10, 7}), "d" + i);
                if (i == 1) {
                    assertThrows(IllegalArgumentException.class, () -> d.setExtent(10, 8));
                }
                assertThrows(IllegalArgumentException.class, () -> d.extend(9, 7));
            }
        }
        List<String> h5py = h5py(path, "with h5py.File(sys.argv[1], 'r') as f:",
                "    for name in sorted(f):",
                "        print(name, f[name].shape, f[name][()].ravel().tolist())");
        String expected = Arrays.toString(cut(original, 1, 4, 10, 7));
        for (int i = 0; i < specs.size(); i++) {
            assertEquals("d" + i + " (10, 7) " + expected, h5py.get(i));
        }
        Hdf5Verifier.verify(path);
    }

    @Test
    void aDatasetH5pyWroteShrunkByQuireGrownByH5py() throws IOException {
        Path path = dir.resolve("h5py.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    f.create_dataset('d', data=np.arange(30).reshape(6, 5), chunks=(4, 2),",
                "                     maxshape=(None, 5), fillvalue=-1)");
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().dataset("d").setExtent(3, 5);
        }
        List<String> grown = h5py(path, "with h5py.File(sys.argv[1], 'r+') as f:",
                "    f['d'].resize((6, 5))",
                "    print(f['d'][()].ravel().tolist())");
        long[] original = new long[30];
        Arrays.setAll(original, i -> i);
        assertEquals(List.of(Arrays.toString(cut(original, 3, 5, 6, 5))), grown);
    }

    private static DatasetSpec.Builder spec(long maxRows, long maxColumns) {
        return DatasetSpec.builder(Datatype.INT64, 10, 7).maxShape(maxRows, maxColumns)
                .chunkShape(4, 3).fillValue(FILL);
    }

    /**
     * The {@code rows} x {@code columns} elements of {@code values} (row-major, {@code 10 x 7}
     * or as wide as {@code columns} is at most) with those outside the first {@code keptRows}
     * x {@code keptColumns} the fill value.
     */
    private static long[] cut(long[] values, int keptRows, int keptColumns, int rows,
                              int columns) {
        int width = values.length / (values.length == 70 ? 10 : 6);
        long[] out = new long[rows * columns];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                out[r * columns + c] = r < keptRows && c < keptColumns ? values[r * width + c]
                        : FILL;
            }
        }
        return out;
    }

    private static List<String> h5py(Path path, String... lines) {
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py, numpy as np\n" + String.join("\n", lines),
                path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().toList();
    }
}
