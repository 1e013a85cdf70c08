package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire h5 dump}, run as a real process: whole datasets and slices of 1-D to 3-D
 * integers, floats, strings and compounds against the values written; an h5py file against
 * Python's own text of its values; numbers against h5dump; a selection larger than the JVM's
 * heap, streamed.
 */
class H5DumpIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void writeFile() throws Exception {
        file = dir.resolve("fixtures.h5");
        H5Fixtures.write(file);
    }

    private static List<String> dump(String... arguments) throws Exception {
        List<String> args = new ArrayList<>(List.of("h5", "dump", file.toString()));
        args.addAll(List.of(arguments));
        QuireCommand.Result result = QuireCommand.run(LIMIT, args.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        return result.stdoutLines();
    }

    /** The lines of /grid/floats2d rows r0..r1-1, columns c0..c1-1, from the values written. */
    private static List<String> floats(int r0, int r1, int c0, int c1) {
        List<String> lines = new ArrayList<>();
        for (int r = r0; r < r1; r++) {
            StringBuilder line = new StringBuilder("[" + r + ", " + c0 + "]: ");
            for (int c = c0; c < c1; c++) {
                line.append(c == c0 ? "" : ", ").append(H5Fixtures.floats2dText(r, c));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    @Test
    void wholeDatasetsPrintTheValuesWritten() throws Exception {
        StringBuilder ints = new StringBuilder("[0]: ");
        for (int i = 0; i < 10; i++) {
            ints.append(i == 0 ? "" : ", ").append(H5Fixtures.ints1d(i));
        }
        assertEquals(List.of(ints.toString()), dump("/grid/ints1d"));
        assertEquals(floats(0, 4, 0, 5), dump("/grid/floats2d"));
        assertEquals(List.of("[0]: \"alpha\", \"be\\\"ta\", \"\""), dump("/names"));
        assertEquals(List.of("[0]: {id=0, x=0.0}, {id=1, x=0.5}, {id=2, x=1.0}, {id=3, x=1.5}"),
                dump("/records"));
        List<String> cube = dump("/grid/cube");
        assertEquals(12, cube.size());
        assertEquals("[0, 0, 0]: -30, -29, -28, -27, -26", cube.get(0));
        assertEquals("[2, 3, 0]: 25, 26, 27, 28, 29", cube.get(11));
        StringBuilder log = new StringBuilder("[0]: ");
        for (int i = 0; i < H5Fixtures.LOG_LENGTH; i++) {
            log.append(i == 0 ? "" : ", ").append(i / 2).append(i % 2 == 0 ? ".0" : ".5");
        }
        assertEquals(List.of(log.toString()), dump("/log"));
    }

    @Test
    void slicesPrintOnlyTheSelection() throws Exception {
        assertEquals(floats(1, 3, 2, 5), dump("/grid/floats2d", "--slice", "1:3,2:5"));
        assertEquals(floats(3, 4, 0, 5), dump("/grid/floats2d", "--slice", "-1"));
        assertEquals(floats(0, 4, 4, 5), dump("/grid/floats2d", "--slice", ":,4"));
        assertEquals(List.of("[7]: 29, 44, 61"), dump("/grid/ints1d", "--slice", "-3:"));
        assertEquals(List.of("[1, 1, 3]: " + H5Fixtures.cube(1, 1, 3) + ", " + H5Fixtures.cube(1, 1, 4),
                "[1, 2, 3]: " + H5Fixtures.cube(1, 2, 3) + ", " + H5Fixtures.cube(1, 2, 4)),
                dump("/grid/cube", "--slice", "1,1:3,-2:"));
        assertEquals(List.of("[1]: {id=1, x=0.5}, {id=2, x=1.0}"), dump("/records", "--slice", "1:3"));
        assertEquals(List.of("[1]: \"be\\\"ta\""), dump("/names", "--slice", "1"));
        assertEquals(List.of(), dump("/grid/cube", "--slice", "1:1"));
    }

    @Test
    void aSliceOfAHugeSparseDatasetReadsOnlyTheSelection() throws Exception {
        // 10^12 elements: reading the dataset whole is impossible; the slice touches two chunks.
        QuireCommand.Result result = QuireCommand.start(Map.of("QUIRE_JAVA_OPTS", "-Xmx32m"), "h5", "dump",
                file.toString(), "/sparse", "--slice", "0:2,998:1003").await(LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(List.of("[0, 998]: 7, 7, 7, 7, 7", "[1, 998]: 7, 7, 7, 7, 7"), result.stdoutLines());
        assertEquals(List.of("[0, 0]: 1, 2, 3, 7", "[1, 0]: 4, 5, 6, 7"),
                dump("/sparse", "--slice", "0:2,0:4"));
        assertEquals(List.of("[999999, 0]: 7, 7, 7, 7"), dump("/sparse", "--slice", "-1,:4"));
    }

    @Test
    void aSelectionLargerThanTheHeapIsStreamedRowBlockByRowBlock() throws Exception {
        // 3,000 x 3,000 int32 = 36 MB of values, printed by a JVM with a 16 MB heap. (While a
        // 1 MiB block's values were held as strings, about 14 MB, 20 MB ran out; a block costs
        // its bytes now, and 10 MB were enough.)
        Path output = dir.resolve("streamed.txt");
        ProcessBuilder command = new ProcessBuilder(QuireCommand.repositoryRoot().resolve("quire").toString(),
                "h5", "dump", file.toString(), "/sparse", "--slice", "0:3000,0:3000")
                .redirectOutput(output.toFile());
        command.environment().put("QUIRE_JAVA_OPTS", "-Xmx16m");
        QuireCommand.Result result = QuireCommand.runProcess(command, Duration.ofSeconds(120));
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        String sevens = ", 7".repeat(2996);
        long lines = 0;
        try (BufferedReader in = Files.newBufferedReader(output)) {
            for (String line = in.readLine(); line != null; line = in.readLine(), lines++) {
                String expected = lines == 0 ? "[0, 0]: 1, 2, 3, 7" + sevens
                        : lines == 1 ? "[1, 0]: 4, 5, 6, 7" + sevens
                        : "[" + lines + ", 0]: 7, 7, 7, 7" + sevens;
                assertEquals(expected, line, "line " + lines);
            }
        }
        assertEquals(3000, lines);
    }

    @Test
    void aFileInLibhdf5sDefaultFormatPrintsAsPythonPrintsItsValues() throws Exception {
        H5pyFixture h5py = H5pyFixture.writeEarliest(dir);
        assertEquals(10, h5py.expectedDumps().size());
        for (Map.Entry<String, List<String>> dataset : h5py.expectedDumps().entrySet()) {
            QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(),
                    dataset.getKey());
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals(dataset.getValue(), result.stdoutLines(), dataset.getKey());
        }
        QuireCommand.Result slice = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(), "/g/normal",
                "--slice", "1,1:,1:");
        assertEquals(0, slice.exitCode(), slice.toString());
        List<String> whole = h5py.expectedDumps().get("/g/normal");
        assertEquals(List.of(whole.get(4).replaceFirst("^\\[1, 1, 0\\]: [^,]+, ", "[1, 1, 1]: "),
                whole.get(5).replaceFirst("^\\[1, 2, 0\\]: [^,]+, ", "[1, 2, 1]: ")), slice.stdoutLines());
    }

    @Test
    void aFileH5pyWrotePrintsAsPythonPrintsItsValues() throws Exception {
        H5pyFixture h5py = H5pyFixture.write(dir);
        // Chunked datasets of every index type; two contiguous ones (one a scalar) and a compact
        // one in a dense group.
        assertEquals(10, h5py.expectedDumps().size());
        assertEquals(List.of("[]: 0.1"), h5py.expectedDumps().get("/many/scalar"));
        assertTrue(h5py.expectedDumps().containsKey("/many/plain"), h5py.expectedDumps().toString());
        assertTrue(h5py.expectedDumps().containsKey("/many/small"), h5py.expectedDumps().toString());
        for (Map.Entry<String, List<String>> dataset : h5py.expectedDumps().entrySet()) {
            QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(),
                    dataset.getKey());
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals(dataset.getValue(), result.stdoutLines(), dataset.getKey());
        }
        QuireCommand.Result slice = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(), "/g/ints",
                "--slice", "1:,1:3");
        assertEquals(List.of("[1, 1]: -1, 0", "[2, 1]: 3, 4"), slice.stdoutLines());
        QuireCommand.Result contiguous = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(),
                "/many/plain", "--slice", "1:,-2:");
        assertEquals(0, contiguous.exitCode(), contiguous.toString());
        assertEquals(List.of("[1, 2]: 0.5, 0.75", "[2, 2]: 1.5, 1.75"), contiguous.stdoutLines());
        QuireCommand.Result compact = QuireCommand.run(LIMIT, "h5", "dump", h5py.file().toString(),
                "/many/small", "--slice", "1,1:");
        assertEquals(0, compact.exitCode(), compact.toString());
        assertEquals(List.of("[1, 1]: 5, -6"), compact.stdoutLines());
    }

    private static final Pattern NUMBER = Pattern.compile("-?(?:nan|inf|[0-9][0-9.e+-]*)");

    /** The numbers h5dump prints for {@code dataset} (17 significant digits for floats). */
    private static List<Double> h5dumpNumbers(String dataset) throws Exception {
        Path h5dump = RequiredTool.require("h5dump", "hdf5-tools");
        QuireCommand.Result result = QuireCommand.runProcess(new ProcessBuilder(h5dump.toString(), "-y", "-w",
                "0", "-m", "%.17g", "-d", dataset, file.toString()), LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        String data = result.stdout().substring(result.stdout().indexOf("DATA {"));
        data = data.substring(6, data.indexOf('}'));
        return numbers(data);
    }

    private static List<Double> numbers(String text) {
        List<Double> values = new ArrayList<>();
        Matcher matcher = NUMBER.matcher(text);
        while (matcher.find()) {
            values.add(Double.parseDouble(matcher.group().replace("nan", "NaN").replace("inf", "Infinity")));
        }
        return values;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/grid/ints1d", "/grid/floats2d", "/grid/cube", "/log"})
    void numbersAreTheOnesH5dumpPrints(String dataset) throws Exception {
        List<Double> ours = new ArrayList<>();
        for (String line : dump(dataset)) {
            ours.addAll(numbers(line.substring(line.indexOf(": ") + 2)));
        }
        List<Double> reference = h5dumpNumbers(dataset);
        assertEquals(reference, ours);
        assertTrue(reference.size() >= 10, reference.toString());
    }

    @ParameterizedTest(name = "[{index}] {0} {1}")
    @CsvSource(delimiter = ';', value = {
        "/grid/cube; 0:x; --slice '0:x': dimension 0: 'x' is not an index",
        "/grid/cube; 0:4; --slice '0:4': dimension 0: stop 4 is beyond the size 3",
        "/grid/cube; 1,2,3,4; --slice '1,2,3,4': 4 dimensions given, the dataset has 3",
        "/grid/cube; :,:,::2; --slice ':,:,::2': dimension 2: steps are not supported",
        "/grid/ints1d; 10; --slice '10': dimension 0: index 10 is outside 0..9"})
    void aBadSliceIsOneLineAndStatus2(String dataset, String spec, String message) throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "dump", file.toString(), dataset,
                "--slice", spec);
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire h5 dump: " + message, "see quire h5 dump --help"), result.stderr().lines().toList());
        assertEquals("", result.stdout());
    }

    @Test
    void aGroupOrAMissingDatasetIsStatus2() throws Exception {
        QuireCommand.Result group = QuireCommand.run(LIMIT, "h5", "dump", file.toString(), "/grid");
        assertEquals(2, group.exitCode(), group.toString());
        assertEquals(List.of("quire h5 dump: /grid is a group, not a dataset, in " + file, "see quire h5 dump --help"),
                group.stderr().lines().toList());
        QuireCommand.Result missing = QuireCommand.run(LIMIT, "h5", "dump", file.toString(), "/none");
        assertEquals(2, missing.exitCode(), missing.toString());
        assertEquals(List.of("quire h5 dump: no object /none in " + file, "see quire h5 dump --help"), missing.stderr().lines().toList());
    }
}
