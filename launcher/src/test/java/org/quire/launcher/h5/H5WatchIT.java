package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.H5pySwmrWriter;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.sion.MiniJson;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire watch} as a real process: {@code --once --json} on every kind of table of a closed
 * file and on a file h5py's SWMR writer appends to; the followed view while a Quire SWMR writer
 * in this JVM appends, ended by the writer's close ({@code --until-writer-exits}) or by SIGINT;
 * the view redrawn in place on a terminal ({@code script}'s pseudo-terminal); and each refusal.
 */
class H5WatchIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final Pattern ROWS = Pattern.compile("^rows (\\d+), ");

    @TempDir
    Path dir;

    private static QuireCommand.Result quire(String... args) throws Exception {
        return QuireCommand.run(LIMIT, args);
    }

    /** {@code quire watch ARGS --once --json}, which must succeed, parsed. */
    private static Map<?, ?> once(Path file, String dataset, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("watch", file.toString(), dataset, "--once",
                "--json", "--interval", "0.2"));
        args.addAll(List.of(more));
        QuireCommand.Result result = quire(args.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.toString());
        return (Map<?, ?>) MiniJson.parse(result.stdout());
    }

    private static Map<String, Object> columns(Object... nameValue) {
        Map<String, Object> columns = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            columns.put((String) nameValue[i], nameValue[i + 1]);
        }
        return columns;
    }

    /** The fixture file, plus a table of extremes: the largest uint64 and a NaN. */
    private Path closedFile() throws Exception {
        Path file = dir.resolve("closed.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            H5Fixtures.populate(hdf5);
            Datatype.CompoundType extreme = Datatype.CompoundType.packed(List.of("big", "nan"),
                    List.of(Datatype.UINT64, Datatype.FLOAT64));
            Dataset extremes = hdf5.root().createDataset("extremes",
                    DatasetSpec.builder(extreme, 1).build());
            extremes.write(new long[] {0}, new long[] {1}, ByteBuffer.allocate(16)
                    .order(ByteOrder.LITTLE_ENDIAN).putLong(-1).putDouble(Double.NaN).flip());
            hdf5.root().createDataset("empty", DatasetSpec.builder(Datatype.INT32, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(8).build());
        }
        return file;
    }

    @Test
    void onceJsonGivesTheLastRowOfEveryKindOfTableOfAClosedFile() throws Exception {
        Path file = closedFile();
        Map<?, ?> records = once(file, "/records");
        assertEquals(file.toString(), records.get("file"));
        assertEquals("/records", records.get("dataset"));
        assertEquals(4L, records.get("rows"));
        assertEquals(columns("id", 3L, "x", 1.5), records.get("columns"));
        assertNull(records.get("rate_rows_per_second"), "nothing writes a closed file");
        assertEquals(Map.of("state", "closed", "summary", "no writer: the file is closed"),
                records.get("writer"));

        assertEquals(columns("0", 3.75, "1", 4.0, "2", 4.25, "3", 4.5, "4", 4.75),
                once(file, "grid/floats2d").get("columns"), "rank 2: a column per index");
        assertEquals(columns("log", 19.5), once(file, "/log").get("columns"));
        assertEquals(columns("ints1d", H5Fixtures.ints1d(9)), once(file, "/grid/ints1d").get("columns"));
        Map<?, ?> extremes = once(file, "/extremes");
        assertEquals(columns("big", new BigInteger("18446744073709551615"), "nan", null),
                extremes.get("columns"), "uint64 exact; NaN is no JSON number");
        Map<?, ?> empty = once(file, "/empty");
        assertEquals(0L, empty.get("rows"));
        assertEquals(columns("empty", null), empty.get("columns"));
    }

    @Test
    void onceWithoutJsonPrintsTheViewWithAnExactRangeOfTheDrawnColumn() throws Exception {
        Path file = closedFile();
        QuireCommand.Result view = quire("watch", file.toString(), "/records", "--once",
                "--column", "id");
        assertEquals(0, view.exitCode(), view.toString());
        assertEquals(List.of("quire watch " + file + " /records", "rows    4",
                "no writer: the file is closed", "latest  id=3, x=1.5",
                "id  \u2581\u2583\u2586\u2588  last 4 rows, 0 .. 3"), view.stdoutLines());
    }

    @Test
    void onceJsonFollowsAFileH5pysSwmrWriterAppendsTo() throws Exception {
        Path file = dir.resolve("h5py.h5");
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(file, "lockstep")) {
            writer.append(100);
            Map<?, ?> first = once(file, "/plain");
            assertEquals(100L, first.get("rows"));
            assertEquals(columns("plain", 3L * 99 + 1), first.get("columns"));
            assertEquals("unknown", ((Map<?, ?>) first.get("writer")).get("state"));
            assertEquals(0.0, first.get("rate_rows_per_second"),
                    "two looks while the writer may write: it appended nothing between them");

            writer.append(1000);
            Map<?, ?> records = once(file, "records");
            assertEquals(1100L, records.get("rows"));
            assertEquals(1099L, ((Map<?, ?>) records.get("columns")).get("seq"));
            writer.closeFile();
        }
        Map<?, ?> closed = once(file, "/plain");
        assertEquals(1100L, closed.get("rows"));
        assertEquals("closed", ((Map<?, ?>) closed.get("writer")).get("state"));
    }

    @Test
    void followsAQuireSwmrWriterUntilItClosesTheFile() throws Exception {
        Path file = dir.resolve("quire.h5");
        QuireCommand.Running watch;
        try (Hdf5File writer = Hdf5File.create(file)) {
            Dataset steps = writer.root().createDataset("steps", DatasetSpec.builder(
                    Datatype.FLOAT64, 0).maxShape(DatasetSpec.UNLIMITED).chunkShape(16).build());
            writer.startSwmrWrite();
            watch = QuireCommand.start(Map.of(), "watch", file.toString(), "/steps",
                    "--interval", "0.1", "--until-writer-exits");
            awaitFirstLine(watch);
            assertEquals("rows 0, writer alive, latest no rows, steps no rows\n", watch.stdoutSoFar());
            for (int batch = 0; batch < 20; batch++) {
                steps.extend(batch * 5 + 5);
                steps.write(new long[] {batch * 5}, new long[] {5}, new double[] {batch, batch,
                        batch, batch, batch + 0.5});
                writer.flush();
                Thread.sleep(100);
            }
            assertTrue(watch.process().isAlive(), "follows while the writer is open: "
                    + watch.stdoutSoFar());
        }
        QuireCommand.Result result = watch.await(LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        long previous = -1;
        for (String line : lines) {
            Matcher rows = ROWS.matcher(line);
            assertTrue(rows.find(), line);
            assertTrue(Long.parseLong(rows.group(1)) >= previous, result.toString());
            previous = Long.parseLong(rows.group(1));
        }
        assertTrue(lines.size() >= 3, "saw it grow: " + result);
        assertTrue(lines.stream().anyMatch(line -> line.contains(", writer alive, ")), result.toString());
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("rows 100, ") && last.contains(", writer closed, latest steps=19.5, "),
                last);
    }

    /**
     * Issue 12: a watch left running must not stop the next job. Writer processes (as a job
     * and its restarts) write the file one after the other under one watch: each reopens it for
     * writing (refused while the watch held it as an SWMR reader), the first restart cutting the
     * rows back to 30 as a restart drops rows past its checkpoint; the watch shows the cut and
     * follows each writer to its last row.
     */
    @Test
    void aWatchLetsEachRestartedWriterReopenTheFileAndFollowsIt() throws Exception {
        Path file = dir.resolve("restarts.h5");
        QuireCommand.Running first = startWriter(file, 0, 50);
        awaitLine(first, "swmr writing");
        // An interval longer than a writer's start: the watch must let go of the file when the
        // writer exits, not at its next look.
        QuireCommand.Running watch = QuireCommand.start(Map.of(), "watch", file.toString(), "/steps",
                "--interval", "3");
        awaitFirstLine(watch);
        assertEquals(0, first.await(LIMIT).exitCode(), "first writer");
        String[][] restarts = {{"30", "80"}, {"80", "100"}, {"100", "110"}};
        for (String[] restart : restarts) {
            QuireCommand.Result writer = startWriter(file, Long.parseLong(restart[0]),
                    Long.parseLong(restart[1])).await(LIMIT);
            assertEquals(0, writer.exitCode(), "a restarted writer opens the file under the watch: "
                    + writer + "\n--- watch so far\n" + watch.stdoutSoFar());
        }
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!watch.stdoutSoFar().contains("rows 110, ")) {
            assertTrue(System.nanoTime() < deadline && watch.process().isAlive(), watch.stdoutSoFar());
            Thread.sleep(50);
        }
        Path killCommand = RequiredTool.require("kill", "procps");
        assertEquals(0, QuireCommand.runProcess(new ProcessBuilder(killCommand.toString(), "-INT",
                Long.toString(watch.process().pid())), LIMIT).exitCode());
        QuireCommand.Result result = watch.await(LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        int cutBacks = 0;
        long previous = -1;
        for (String line : lines) {
            Matcher rows = Pattern.compile("^rows (\\d+)( \\(cut back from (\\d+) by a writer that "
                    + "reopened the file\\))?, ").matcher(line);
            assertTrue(rows.find(), line);
            long now = Long.parseLong(rows.group(1));
            if (rows.group(2) != null) {
                cutBacks++;
                assertEquals(previous, Long.parseLong(rows.group(3)), line);
                assertTrue(now >= 30 && now < 50, line);
            } else {
                assertTrue(now >= previous, result.toString());
            }
            previous = now;
        }
        assertEquals(1, cutBacks, result.toString());
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("rows 50, ")
                && line.contains(", writer closed, latest steps=49.0, ")), result.toString());
        assertTrue(lines.stream().anyMatch(line -> line.contains(", writer alive, ")
                && Long.parseLong(line.split("[ ,]")[1]) > 50), "followed a restarted writer: " + result);
        assertTrue(lines.get(lines.size() - 1).startsWith("rows 110, ")
                && lines.get(lines.size() - 1).contains(", writer closed, latest steps=109.0, "), result.toString());
    }

    private static QuireCommand.Running startWriter(Path file, long keep, long rows) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = QuireCommand.repositoryRoot().resolve("launcher/target/lib") + "/*:"
                + QuireCommand.testWorkers();
        return QuireCommand.startProcess(new ProcessBuilder(java, "-cp", classPath,
                "org.quire.launcher.workers.SwmrStepsWriter", file.toString(), Long.toString(keep),
                Long.toString(rows)));
    }

    private static void awaitLine(QuireCommand.Running process, String line) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!process.stdoutSoFar().contains(line + "\n")) {
            assertTrue(System.nanoTime() < deadline && process.process().isAlive(),
                    process.stdoutSoFar() + process.stderrSoFar());
            Thread.sleep(20);
        }
    }

    private static void awaitFirstLine(QuireCommand.Running watch) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!watch.stdoutSoFar().contains("\n")) {
            assertTrue(System.nanoTime() < deadline && watch.process().isAlive(), watch.stdoutSoFar());
            Thread.sleep(20);
        }
    }

    @Test
    void ctrlCStopsTheViewWithStatus0() throws Exception {
        Path file = closedFile();
        QuireCommand.Running watch = QuireCommand.start(Map.of(), "watch", file.toString(), "/log",
                "--interval", "0.1");
        awaitFirstLine(watch); // the handler is in place
        Thread.sleep(300);
        Path killCommand = RequiredTool.require("kill", "procps");
        QuireCommand.Result kill = QuireCommand.runProcess(new ProcessBuilder(killCommand.toString(), "-INT",
                Long.toString(watch.process().pid())), LIMIT);
        assertEquals(0, kill.exitCode(), kill.toString());
        QuireCommand.Result result = watch.await(LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(1, result.stdoutLines().size(), "one line: nothing changed; " + result);
        assertTrue(result.stdout().startsWith("rows 40, writer closed, latest log=19.5, log "),
                result.stdout());
    }

    @Test
    void aTerminalGetsTheViewRedrawnInPlace() throws Exception {
        Path script = RequiredTool.require("script", "bsdutils");
        Path file = closedFile();
        String watch = QuireCommand.repositoryRoot().resolve("quire") + " watch " + file
                + " /records --interval 0.1";
        QuireCommand.Result result = QuireCommand.runProcess(new ProcessBuilder(script.toString(),
                "-qec", "timeout --preserve-status -s INT 3 " + watch, "/dev/null"), LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
        String out = result.stdout();
        assertTrue(out.startsWith("\u001b[?7l\u001b[?25lquire watch " + file + " /records\r\n"),
                out);
        assertTrue(out.contains("\u001b[5F\u001b[J"), "back up over the 5 lines: " + out);
        assertTrue(out.endsWith("\u001b[?7h\u001b[?25h"), "wrapping and cursor restored: " + out);
    }

    @Test
    void whatIsNoTableOfNumbersIsOneLineAndStatus1() throws Exception {
        Path file = closedFile();
        Path text = Files.writeString(dir.resolve("notes.txt"), "not HDF5\n");
        Object[][] cases = {
            {text, "/d", "quire watch: " + text + ": not an HDF5 file"},
            {file, "/missing", "quire watch: no object /missing in " + file},
            {file, "/grid", "quire watch: /grid is a group, not a dataset, in " + file},
            {file, "/names", "quire watch: " + file + ": /names holds type string[8] nullterm"
                    + " ascii, not numbers (" + WatchedTable.WHAT_IS_WATCHED + ")"},
            {file, "/grid/cube", "quire watch: " + file + ": /grid/cube has rank 3 ("},
        };
        for (Object[] bad : cases) {
            QuireCommand.Result result = quire("watch", bad[0].toString(), (String) bad[1], "--once");
            assertEquals(1, result.exitCode(), result.toString());
            assertEquals(1, result.stderr().lines().count(), result.toString());
            assertTrue(result.stderr().startsWith((String) bad[2]), result.toString());
            assertEquals("", result.stdout());
        }
    }

    @Test
    void badArgumentsAreUsageErrorsWithStatus2() throws Exception {
        Path file = closedFile();
        String[][] cases = {
            {"watch", file.toString(), "/records", "--once", "--column", "y"},
            {"watch", file.toString(), "/records", "--json"},
            {"watch", file.toString(), "/records", "--once", "--until-writer-exits"},
            {"watch", file.toString(), "/records", "--interval", "0"},
            {"watch", dir.resolve("none.h5").toString(), "/records"},
        };
        String[] problems = {"no column \"y\" in /records of " + file + " (columns: id, x)",
            "--json needs --once", "--until-writer-exits and --once exclude each other",
            "--interval must be more than 0", dir.resolve("none.h5") + ": no such file"};
        for (int i = 0; i < cases.length; i++) {
            QuireCommand.Result result = quire(cases[i]);
            assertEquals(2, result.exitCode(), result.toString());
            List<String> lines = result.stderr().lines().toList();
            assertEquals(2, lines.size(), result.toString());
            assertTrue(lines.get(0).startsWith("quire watch: " + problems[i]), result.toString());
            assertEquals("see quire watch --help", lines.get(1));
            assertEquals("", result.stdout());
        }
    }

    @Test
    void aFileAPlainWriterHoldsIsRefusedNamingTheWriter() throws Exception {
        Path file = dir.resolve("held.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            writer.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            writer.flush();
            QuireCommand.Result result = quire("watch", file.toString(), "/d", "--once");
            assertEquals(1, result.exitCode(), result.toString());
            assertTrue(result.stderr().startsWith("quire watch: " + file + ": file is open for "
                    + "writing, locked by another writer (writer, pid " + ProcessHandle.current().pid()),
                    result.stderr());
        }
    }
}
