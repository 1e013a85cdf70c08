package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.UsageException;

/**
 * {@link HyperslabPrinter} prints the same lines whatever its read budget: whole rows several at
 * a time, one row per read, or long rows in pieces of a few elements.
 */
class H5HyperslabPrinterTest {

    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void writeFile() throws IOException {
        file = dir.resolve("fixtures.h5");
        H5Fixtures.write(file);
    }

    /** The lines for a slice of /grid/cube, built element by element from the written values. */
    private static List<String> expectedCube(long[] start, long[] count) {
        List<String> lines = new ArrayList<>();
        for (long i = start[0]; i < start[0] + count[0]; i++) {
            for (long j = start[1]; j < start[1] + count[1]; j++) {
                StringBuilder line = new StringBuilder("[" + i + ", " + j + ", " + start[2] + "]: ");
                for (long k = start[2]; k < start[2] + count[2]; k++) {
                    line.append(k == start[2] ? "" : ", ").append(H5Fixtures.cube((int) i, (int) j, (int) k));
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    private static List<String> print(Dataset dataset, Slice slice, long budgetBytes) throws IOException {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            new HyperslabPrinter(dataset, budgetBytes).print(slice, out);
        }
        return text.toString().lines().toList();
    }

    @ParameterizedTest(name = "--slice {0}")
    @CsvSource(delimiter = ';', value = {":", "1:3,1:4,0:5", "2,:,3", "0:3,3,1:", "1:1", ":,:,4"})
    void everyReadBudgetPrintsTheSameLines(String spec) throws IOException, UsageException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset cube = ObjectPaths.findDataset(hdf5, "/grid/cube");
            Slice slice = Slice.parse(spec, cube.shape());
            List<String> expected = expectedCube(slice.start(), slice.count());
            // 2 bytes: one element per read (rows in pieces); 10: exactly one 5-element row;
            // 26: two rows and a remainder; 1 MiB: the whole selection at once.
            for (long budget : new long[] {2, 4, 10, 26, 1 << 20}) {
                assertEquals(expected, print(cube, slice, budget), "budget " + budget);
            }
        }
    }

    @ParameterizedTest(name = "budget {0}")
    @CsvSource({"4", "12", "40", "1048576"})
    void aOneDimensionalDatasetIsOneLineWhateverTheBudget(long budget) throws IOException, UsageException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset log = ObjectPaths.findDataset(hdf5, "/log");
            StringBuilder expected = new StringBuilder("[3]: ");
            for (int i = 3; i < 37; i++) {
                expected.append(i == 3 ? "" : ", ").append(i / 2).append(i % 2 == 0 ? ".0" : ".5");
            }
            assertEquals(List.of(expected.toString()), print(log, Slice.parse("3:37", log.shape()), budget));
        }
    }
}
