package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@link SwmrAppend} in its own JVM appends while two Quire SWMR followers ({@link SwmrFollow},
 * each its own JVM) and two independent h5py SWMR followers ({@code swmr_follow.py}, with their
 * own record check) follow the file at once: every record they see is verified, none is torn, a
 * fill value or out of order, and each follower sees the dataset grow at least five times (it
 * follows while the writer writes, not after it closed), through {@code
 * benchmarks/swmr-readers-stress.sh} for 4 seconds (its CI variant). h5dump reads the closed
 * file. Both
 * followers fail on bad records. A second run continues after the last record; bad arguments
 * exit 2 with one line, {@code --help} exits 0.
 */
class SwmrFollowIT {

    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Pattern SUMMARY = Pattern.compile("^appended (\\d+) records \\(seq (\\d+)"
            + "\\.\\.(\\d+)\\) to .* in (\\d+) flushes of up to (\\d+) records.*, ([0-9.]+) s, "
            + "(\\d+) records/s$");

    @TempDir
    Path dir;

    /** A JVM running {@code main} of {@code program} with this test's class path. */
    private static ProcessBuilder java(Class<?> program, String... args) {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), program.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    private static ProcessBuilder swmrAppend(String... args) {
        return java(SwmrAppend.class, args);
    }

    private static ProcessBuilder quireFollower(Path file, long expect) {
        return java(SwmrFollow.class, file.toString(), "records", "--expect",
                Long.toString(expect), "--timeout", "150");
    }

    private static ProcessBuilder follower(Path file, long expect) {
        return new ProcessBuilder(PYTHON.toString(), QuireCommand.repositoryRoot()
                .resolve("examples/src/main/python/swmr_follow.py").toString(), file.toString(),
                "records", "--expect", Long.toString(expect), "--timeout", "150");
    }

    private static void requireClean(QuireCommand.Result follower, long records) {
        assertEquals(0, follower.exitCode(), follower.toString());
        requireClean(follower.stdout().strip(), records);
    }

    private static void requireClean(String json, long records) {
        assertTrue(json.contains("\"error\": null"), json);
        java.util.Map<String, Long> counts = FollowerJson.counts(json);
        assertEquals(records, counts.get("records"), json);
        assertEquals(records, counts.get("ok"), json);
        for (String bad : List.of("torn", "fill", "out_of_order", "shrinks")) {
            assertEquals(0, counts.get(bad), bad + ": " + json);
        }
    }

    /**
     * The CI variant of {@code benchmarks/swmr-readers-stress.sh}: 4 seconds of appends (batches
     * of 10) with two {@link SwmrFollow} JVMs (until no writer is alive) and two h5py followers
     * (until idle) at once; each must have checked every record the writer appended, and seen
     * the dataset grow at least five times (it follows while the writer writes).
     */
    @Test
    void twoQuireAndTwoH5pyFollowersVerifyEveryRecordWhileQuireAppends() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-h5py", "-c", "import h5py, numpy");
        RequiredTool.require("h5dump", "hdf5-tools");
        ProcessBuilder script = new ProcessBuilder(QuireCommand.repositoryRoot()
                .resolve("benchmarks/swmr-readers-stress.sh").toString(), "4");
        script.environment().put("QUIRE_CLASSPATH", System.getProperty("java.class.path"));
        script.environment().put("QUIRE_BENCH_DIR", dir.toString());
        QuireCommand.Result run = QuireCommand.runProcess(script, LIMIT);
        System.out.println(run.stdout().strip());
        assertEquals(0, run.exitCode(), run.toString());
        List<String> lines = run.stdoutLines();
        Matcher summary = SUMMARY.matcher(lines.get(0));
        assertTrue(summary.matches(), run.toString());
        long records = Long.parseLong(summary.group(1));
        assertTrue(records >= 1000, run.toString());
        assertEquals("10", summary.group(5), run.toString());
        for (String name : List.of("quire-1", "quire-2", "h5py-1", "h5py-2")) {
            String json = lines.stream().filter(line -> line.startsWith(name + ": "))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + name + " line: "
                            + run)).substring(name.length() + 2);
            requireClean(json, records);
            long extents = FollowerJson.counts(json).get("extents_seen");
            assertTrue(extents >= 5, "the follower saw the dataset grow only " + extents
                    + " times: " + json);
        }
        assertTrue(lines.get(lines.size() - 1).startsWith("swmr-readers: 4 s, 1 writer ("
                + records + " records") && lines.get(lines.size() - 1).endsWith("; ok"),
                run.toString());
    }

    /**
     * The followers' checks can fail: a file with one torn record, one of zeros and one of
     * another seq (each as {@link SwmrRecord#verify} classifies it too) makes each follower,
     * h5py's and Quire's, count each and exit 1.
     */
    @Test
    void theFollowerCountsTornFillAndOutOfOrderRecordsAndFails() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-h5py", "-c", "import h5py, numpy");
        Path file = dir.resolve("bad-records.h5");
        int count = 12;
        ByteBuffer records = ByteBuffer.allocate(count * SwmrRecord.SIZE);
        for (int i = 0; i < count; i++) {
            SwmrRecord.encode(i == 9 ? 10 : i, 1000 + i, records);
        }
        int torn = 5 * SwmrRecord.SIZE + 32; // a byte of p2 of record 5
        records.put(torn, (byte) (records.get(torn) ^ 1));
        records.put(7 * SwmrRecord.SIZE, new byte[SwmrRecord.SIZE]); // record 7: fill
        records.flip();
        List<SwmrRecord.Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            verdicts.add(SwmrRecord.verify(records.slice(i * SwmrRecord.SIZE, SwmrRecord.SIZE),
                    i));
        }
        assertEquals(List.of(SwmrRecord.Verdict.TORN, SwmrRecord.Verdict.FILL,
                SwmrRecord.Verdict.WRONG_SEQ), List.of(verdicts.get(5), verdicts.get(7),
                verdicts.get(9)));
        try (Hdf5File out = Hdf5File.create(file)) {
            Dataset d = out.root().createDataset("records", DatasetSpec.builder(SwmrRecord.TYPE,
                    0).maxShape(DatasetSpec.UNLIMITED).chunkShape(SwmrAppend.CHUNK_RECORDS)
                    .build());
            d.extend(count);
            d.write(new long[] {0}, new long[] {count}, records);
        }
        for (ProcessBuilder command : List.of(follower(file, count),
                quireFollower(file, count))) {
            QuireCommand.Result follower = QuireCommand.runProcess(command, LIMIT);
            assertEquals(1, follower.exitCode(), follower.toString());
            java.util.Map<String, Long> counts = FollowerJson.counts(follower.stdout());
            assertEquals(List.of(9L, 1L, 1L, 1L, 12L), List.of(counts.get("ok"),
                    counts.get("torn"), counts.get("fill"), counts.get("out_of_order"),
                    counts.get("records")), follower.toString());
        }
    }

    /**
     * A damaged index block: libhdf5 retries its read for minutes inside one C call, so h5py's
     * follower runs it in a child process it kills past the timeout; it stops within the
     * timeout and its grace (5 s) with one error, exit 1.
     */
    @Test
    void h5pysFollowerStopsAtItsTimeoutOnADamagedBlock() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-h5py", "-c", "import h5py, numpy");
        Path file = dir.resolve("damaged.h5");
        SwmrAppend.append(SwmrAppend.Arguments.parse(new String[] {file.toString(), "records",
                "5000", "1000"}), () -> { });
        byte[] bytes = Files.readAllBytes(file);
        int indexBlock = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("EAIB");
        assertTrue(indexBlock > 0, "an extensible array index block");
        bytes[indexBlock + 12] ^= 1;
        Files.write(file, bytes);
        QuireCommand.Result follower = QuireCommand.runProcess(new ProcessBuilder(
                PYTHON.toString(), QuireCommand.repositoryRoot().resolve(
                        "examples/src/main/python/swmr_follow.py").toString(), file.toString(),
                "records", "--expect", "5000", "--timeout", "2"), Duration.ofSeconds(60));
        assertEquals(1, follower.exitCode(), follower.toString());
        assertTrue(follower.stdout().contains("libhdf5 did not return within 5.0 s of the 2.0 s "
                + "timeout"), follower.toString());
        assertTrue(follower.took().toSeconds() < 30, follower.toString());
    }

    @Test
    void aSecondRunContinuesAfterTheLastRecord() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-h5py", "-c", "import h5py, numpy");
        Path file = dir.resolve("continue.h5");
        QuireCommand.Result first = QuireCommand.runProcess(swmrAppend(file.toString(),
                "/records", "1000", "100"), LIMIT);
        assertEquals(0, first.exitCode(), first.toString());
        QuireCommand.Result second = QuireCommand.runProcess(swmrAppend(file.toString(),
                "records", "500", "7", "--fsync"), LIMIT);
        assertEquals(0, second.exitCode(), second.toString());
        assertTrue(second.stdout().startsWith("appended 500 records (seq 1000..1499) to "),
                second.toString());
        requireClean(QuireCommand.runProcess(follower(file, 1500), LIMIT), 1500);
        // Without --expect, SwmrFollow checks what is there once no writer is alive on it.
        QuireCommand.Result untilClosed = QuireCommand.runProcess(java(SwmrFollow.class,
                file.toString(), "/records"), LIMIT);
        requireClean(untilClosed, 1500);
        assertTrue(untilClosed.stdout().contains("\"expected\": null"), untilClosed.toString());
    }

    @Test
    void badArgumentsExitTwoWithOneLineAndHelpExitsZero() throws Exception {
        Path file = dir.resolve("bad.h5");
        for (String[] args : List.of(new String[] {file.toString(), "records", "ten", "1"},
                new String[] {file.toString(), "records"},
                new String[] {file.toString(), "records", "1", "1", "--sync"})) {
            QuireCommand.Result result = QuireCommand.runProcess(swmrAppend(args), LIMIT);
            assertEquals(2, result.exitCode(), result.toString());
            assertEquals(1, result.stderr().lines().count(), result.toString());
            assertTrue(result.stderr().contains("usage: SwmrAppend"), result.toString());
        }
        assertTrue(java.nio.file.Files.notExists(file));
        for (String[] args : List.of(new String[] {file.toString()},
                new String[] {file.toString(), "records", "--expect", "-3"},
                new String[] {file.toString(), "records", "--timeout"},
                new String[] {file.toString(), "a/b"},
                new String[] {file.toString(), "records", "--since", "1"})) {
            QuireCommand.Result result = QuireCommand.runProcess(java(SwmrFollow.class, args),
                    LIMIT);
            assertEquals(2, result.exitCode(), result.toString());
            assertEquals(1, result.stderr().lines().count(), result.toString());
            assertTrue(result.stderr().startsWith("SwmrFollow: ")
                    && result.stderr().contains("usage: SwmrFollow"), result.toString());
        }
        assertTrue(java.nio.file.Files.notExists(file));
        for (Class<?> program : List.of(SwmrAppend.class, SwmrFollow.class)) {
            QuireCommand.Result help = QuireCommand.runProcess(java(program, "--help"), LIMIT);
            assertEquals(0, help.exitCode(), help.toString());
            assertTrue(help.stdout().startsWith("usage: " + program.getSimpleName()),
                    help.toString());
        }
        QuireCommand.Result notHdf5 = QuireCommand.runProcess(swmrAppend(
                dir.toString(), "records", "1", "1"), LIMIT);
        assertEquals(1, notHdf5.exitCode(), notHdf5.toString());
        assertEquals(1, notHdf5.stderr().lines().count(), notHdf5.toString());
        assertTrue(notHdf5.stderr().contains(dir.toString()), notHdf5.toString());
        QuireCommand.Result notThere = QuireCommand.runProcess(java(SwmrFollow.class,
                file.toString(), "records", "--timeout", "0.5"), LIMIT);
        assertEquals(1, notThere.exitCode(), notThere.toString());
        assertTrue(notThere.stdout().contains("\"error\": \"could not open " + file
                + " as an SWMR reader: no such file\""), notThere.toString());
        // Bad input ends the run at once (not after the default 60 s), naming the file.
        Path text = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "not hdf5");
        QuireCommand.Result notHdf5File = QuireCommand.runProcess(java(SwmrFollow.class,
                text.toString(), "records"), Duration.ofSeconds(30));
        assertEquals(1, notHdf5File.exitCode(), notHdf5File.toString());
        assertTrue(notHdf5File.stdout().contains("\"error\": \"" + text + ": not an HDF5 file"),
                notHdf5File.toString());
        Path records = dir.resolve("records.h5");
        QuireCommand.Result first = QuireCommand.runProcess(swmrAppend(records.toString(),
                "records", "10", "10"), LIMIT);
        assertEquals(0, first.exitCode(), first.toString());
        QuireCommand.Result noDataset = QuireCommand.runProcess(java(SwmrFollow.class,
                records.toString(), "other"), Duration.ofSeconds(30));
        assertEquals(1, noDataset.exitCode(), noDataset.toString());
        assertTrue(noDataset.stdout().contains("\"error\": \"" + records + ": "),
                noDataset.toString());
    }
}
