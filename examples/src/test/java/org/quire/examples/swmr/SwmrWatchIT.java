package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.MiniJson;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire watch --once --json} run again and again while {@link SwmrAppend}, in its own
 * JVM, appends records of the {@link SwmrRecord} contract and an h5py SWMR follower ({@code
 * swmr_follow.py}) reads and checks every record of the same file: each look's row count is at
 * least the last one's, its latest row is record {@code rows - 1} by the contract, and the
 * writer is alive while it writes; the follower sees every record ok; a last look after the
 * writer closed sees all of them and a closed file.
 */
class SwmrWatchIT {

    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    /** More than the writer can append in {@link #WRITE_SECONDS}: it stops by time, so every load gives several looks. */
    private static final long RECORDS = 1_000_000_000;
    private static final String WRITE_SECONDS = "15";
    private static final BigInteger UINT64 = BigInteger.ONE.shiftLeft(64);

    @TempDir
    Path dir;

    private static QuireCommand.Result watch(Path file) throws Exception {
        return QuireCommand.run(LIMIT, "watch", file.toString(), "records", "--once", "--json",
                "--interval", "0.2");
    }

    /** A uint64 member of the JSON as the bits Java keeps in a long. */
    private static long uint64(Object value) {
        return value instanceof Long small ? small : ((BigInteger) value).subtract(UINT64).longValueExact();
    }

    /** The look's latest row is record {@code rows - 1} of the contract, word by word. */
    private static void assertContractRecord(Map<?, ?> look, String json) {
        long rows = (Long) look.get("rows");
        Map<?, ?> columns = (Map<?, ?>) look.get("columns");
        assertEquals(SwmrRecord.MEMBER_NAMES, new ArrayList<>(columns.keySet()), json);
        long seq = uint64(columns.get("seq"));
        assertEquals(rows - 1, seq, json);
        long sum = seq ^ uint64(columns.get("t_ns"));
        for (int k = 0; k < SwmrRecord.PAYLOAD_WORDS; k++) {
            long payload = uint64(columns.get("p" + k));
            assertEquals(SwmrRecord.payload(seq, k), payload, "p" + k + ": " + json);
            sum ^= payload;
        }
        assertEquals(sum, uint64(columns.get("sum")), json);
    }

    @Test
    void watchOnceFollowsSwmrAppendWhileH5pyReadsTheSameFile() throws Exception {
        RequiredTool.requireWorking(PYTHON, "python3-h5py", "-c", "import h5py, numpy");
        Path file = dir.resolve("watched.h5");
        QuireCommand.Running h5py = QuireCommand.startProcess(new ProcessBuilder(PYTHON.toString(),
                QuireCommand.repositoryRoot().resolve("examples/src/main/python/swmr_follow.py")
                        .toString(), file.toString(), "records", "--idle", "10",
                "--timeout", "150"));
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), SwmrAppend.class.getName(), file.toString(),
                "records", Long.toString(RECORDS), "10", "--seconds", WRITE_SECONDS));
        QuireCommand.Running writer = QuireCommand.startProcess(new ProcessBuilder(command));

        long lastRows = 0;
        Set<Long> rowsSeenWhileWriting = new HashSet<>();
        List<String> seen = new ArrayList<>();
        while (writer.process().isAlive()) {
            if (!Files.exists(file)) {
                Thread.sleep(20);
                continue;
            }
            QuireCommand.Result look = watch(file);
            if (look.exitCode() != 0) {
                // Before the writer's switch to SWMR writing its lock keeps SWMR readers out.
                assertTrue(look.stderr().contains("a writer that has not switched to SWMR writing")
                        || look.stderr().contains("not an HDF5 file: it is empty") || !writer.process()
                        .isAlive(), look.toString());
                continue;
            }
            Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(look.stdout());
            long rows = (Long) parsed.get("rows");
            assertTrue(rows >= lastRows, "rows went back from " + lastRows + ": " + look.stdout());
            lastRows = rows;
            if (rows > 0) {
                assertContractRecord(parsed, look.stdout());
            }
            String state = (String) ((Map<?, ?>) parsed.get("writer")).get("state");
            if (state.equals("alive") && rows > 0 && rows < RECORDS) {
                rowsSeenWhileWriting.add(rows);
                assertTrue(parsed.get("rate_rows_per_second") instanceof Double, look.stdout());
            }
            seen.add(rows + " " + state + " " + parsed.get("rate_rows_per_second"));
        }
        QuireCommand.Result written = writer.await(LIMIT);
        assertEquals(0, written.exitCode(), written.toString());
        System.out.println(written.stdout().strip() + "\nquire watch looks (rows, writer, rows/s): " + seen);
        // Each look is a JVM start (seconds on a loaded machine): two looks at different counts show it follows.
        assertTrue(rowsSeenWhileWriting.size() >= 2, "saw two row counts while it wrote: " + seen);

        QuireCommand.Result last = watch(file);
        assertEquals(0, last.exitCode(), last.toString());
        Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(last.stdout());
        long finalRows = (Long) parsed.get("rows");
        assertTrue(finalRows >= lastRows && finalRows > 0, last.stdout());
        assertContractRecord(parsed, last.stdout());
        assertEquals("closed", ((Map<?, ?>) parsed.get("writer")).get("state"));

        QuireCommand.Result follower = h5py.await(LIMIT);
        assertEquals(0, follower.exitCode(), follower.toString());
        System.out.println("swmr_follow.py: " + follower.stdout().strip());
        assertTrue(follower.stdout().contains("\"ok\": " + finalRows + ",")
                && follower.stdout().contains("\"torn\": 0}"), follower.stdout());
    }
}
