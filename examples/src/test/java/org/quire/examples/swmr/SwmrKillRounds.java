package org.quire.examples.swmr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.quire.launcher.QuireCommand;

/**
 * Kills a real {@link SwmrAppend} process with SIGKILL at seeded random moments and checks what
 * it leaves (issue 10, item 6), round after round: {@code SwmrKillIT} runs 20 rounds,
 * {@code benchmarks/swmr-kill-stress.sh} as many as it is told:
 *
 * <pre>java -cp ... org.quire.examples.swmr.SwmrKillRounds DIR KILLS [SEED]</pre>
 *
 * <p>Each round starts the writer in its own JVM ({@code --progress}: a line {@code flushed N}
 * after each flush returned), waits for its first such line, waits a random 0 to
 * {@value #MAX_DELAY_MILLIS} ms more and kills it by its pid. N, the last complete line's count,
 * is then a lower bound of what the file must show, and N plus one batch an upper bound (the
 * kill may cut the line of one more commit off, never more). Then:
 * <ol>
 *   <li>Quire's reader ({@link SwmrFollow#follow}: {@code openSwmr}, refresh, every record up
 *       to the extent checked) and h5py's ({@code swmr_follow.py}, {@code swmr=True}) find the
 *       same extent V, N &le; V &le; N + batch, every record ok (none torn, a fill value or out
 *       of order);</li>
 *   <li>{@code quire h5 clear FILE} makes it a plain file: {@code h5dump} reads records N - 1
 *       to V - 1 (their {@code seq}) and the extent V, and plain h5py (no SWMR) checks all V
 *       records.</li>
 * </ol>
 * Half the rounds (seeded; at most {@value #MAX_CHAIN} in a row) restart the writer on the
 * killed and cleared file: it must reopen it and append after record V (its first line says
 * V + batch). Batches are 1, 3, 10 or 64 records, a quarter of the rounds with {@code --fsync}.
 * The first failure ends the run with an {@link AssertionError} naming the round and keeping
 * its file.
 */
final class SwmrKillRounds {

    static final long MAX_DELAY_MILLIS = 500;
    static final int MAX_CHAIN = 6;
    private static final int[] BATCHES = {1, 3, 10, 64};
    private static final Duration LIMIT = Duration.ofSeconds(60);
    static final Path PYTHON = Path.of("/usr/bin/python3");

    private final Path dir;
    private final Random random;
    private final Path follower;
    private final Path h5dump;
    private final List<String> javaCommand;
    /** The writer of the round under way, killed if this JVM is stopped (it would append on). */
    private volatile Process writer;

    /** What the rounds saw, for the summary line. */
    static final class Totals {
        int kills;
        int continued;
        long minFlushed = Long.MAX_VALUE;
        long maxVisible;
        long pastLastLine;
        long replayedOnClear;
        long records;

        String line(long seed, double seconds) {
            return String.format(Locale.ROOT, "swmr-kill: %d kills (seed %d), %d of them "
                            + "continued a killed file; 0 failures: every flushed record "
                            + "intact for Quire's and h5py's SWMR readers and after quire h5 "
                            + "clear for h5dump and plain h5py; %d records checked per reader, "
                            + "files of %d to %d records, %d rounds showed the commit after "
                            + "the last flushed line, %d cleared files the flush in progress "
                            + "(its journal replayed); %.1f s",
                    kills, seed, continued, records, minFlushed, maxVisible, pastLastLine,
                    replayedOnClear, seconds);
        }
    }

    /**
     * Rounds in {@code dir} with {@code seed}; {@code PYTHON} must import h5py and {@code h5dump}
     * run (the IT checks both with {@code RequiredTool}, the stress script before it starts).
     */
    SwmrKillRounds(Path dir, long seed, Path h5dump) {
        this.dir = dir;
        this.random = new Random(seed);
        this.h5dump = h5dump;
        this.follower = QuireCommand.repositoryRoot().resolve(
                "examples/src/main/python/swmr_follow.py");
        this.javaCommand = List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: SwmrKillRounds DIR KILLS [SEED] (h5dump on PATH)");
            System.exit(2);
        }
        long seed = args.length == 3 ? Long.parseLong(args[2]) : System.nanoTime();
        Path dir = Files.createDirectories(Path.of(args[0]));
        SwmrKillRounds rounds = new SwmrKillRounds(dir, seed, Path.of("h5dump"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Process running = rounds.writer;
            if (running != null) {
                running.destroyForcibly();
            }
        }));
        try {
            rounds.run(Integer.parseInt(args[1]), seed, System.out);
        } catch (AssertionError e) {
            System.out.println("swmr-kill: FAILED (seed " + seed + "): " + e.getMessage());
            System.exit(1);
        }
    }

    /** Runs {@code kills} rounds, printing one line per round and the summary; the totals. */
    Totals run(int kills, long seed, java.io.PrintStream out) throws Exception {
        out.println("swmr-kill: seed " + seed + ", " + kills + " kills in " + dir);
        long started = System.nanoTime();
        Totals totals = new Totals();
        Path file = null;
        long visible = 0;
        int chain = 0;
        for (int round = 1; round <= kills; round++) {
            boolean continuing = file != null && chain < MAX_CHAIN && random.nextBoolean();
            if (!continuing) {
                if (file != null) {
                    deleteFiles(file);
                }
                file = dir.resolve("kill-" + round + ".h5");
                visible = 0;
                chain = 0;
            }
            int batch = BATCHES[random.nextInt(BATCHES.length)];
            boolean fsync = random.nextInt(4) == 0;
            long delay = (long) (random.nextDouble() * MAX_DELAY_MILLIS);
            String where = "round " + round + " (" + file.getFileName() + ", batch " + batch
                    + (fsync ? ", --fsync" : "") + ", kill " + delay + " ms after the first "
                    + "flush" + (continuing ? ", continuing after " + visible + " records" : "")
                    + ")";
            long flushed = killWriter(file, batch, fsync, delay, visible, where);
            long seen = checkKilledFile(file, flushed, batch, where);
            visible = checkCleared(file, flushed, seen, batch, where);
            out.println(where + ": flushed " + flushed + ", visible " + seen + ", after clear "
                    + visible + ", ok");
            totals.kills++;
            totals.continued += continuing ? 1 : 0;
            totals.minFlushed = Math.min(totals.minFlushed, flushed);
            totals.maxVisible = Math.max(totals.maxVisible, visible);
            totals.pastLastLine += seen > flushed ? 1 : 0;
            totals.replayedOnClear += visible > seen ? 1 : 0;
            totals.records += visible;
            chain++;
        }
        deleteFiles(file);
        out.println(totals.line(seed, (System.nanoTime() - started) / 1e9));
        return totals;
    }

    /**
     * Starts the writer, kills it by its pid {@code delay} ms after its first flush, and
     * returns the records its last complete {@code flushed} line counted.
     */
    private long killWriter(Path file, int batch, boolean fsync, long delay, long before,
                            String where) throws Exception {
        List<String> command = new ArrayList<>(javaCommand);
        command.addAll(List.of(SwmrAppend.class.getName(), file.toString(), "records",
                Long.toString(Long.MAX_VALUE / 2), Integer.toString(batch), "--progress"));
        if (fsync) {
            command.add("--fsync");
        }
        QuireCommand.Running writer = QuireCommand.startProcess(new ProcessBuilder(command));
        this.writer = writer.process();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!writer.stdoutSoFar().contains("\n")) {
            if (!writer.process().isAlive() || System.nanoTime() > deadline) {
                writer.process().destroyForcibly();
                throw new AssertionError(where + ": the writer never flushed: "
                        + writer.await(LIMIT));
            }
            Thread.sleep(1);
        }
        long first = lastFlushed(writer.stdoutSoFar().substring(0,
                writer.stdoutSoFar().indexOf('\n') + 1), where);
        if (first != before + batch) {
            throw new AssertionError(where + ": the writer's first flush counted " + first
                    + " records, expected " + (before + batch) + " (it must continue after "
                    + "the file's last record)");
        }
        Thread.sleep(delay);
        // SIGKILL to the writer's pid. Not Process.destroyForcibly: it also closes the pipe of
        // the writer's output, whose last lines would then be lost unread.
        if (!writer.process().toHandle().destroyForcibly()) {
            throw new AssertionError(where + ": could not send SIGKILL to the writer, pid "
                    + writer.process().pid());
        }
        QuireCommand.Result killed = writer.await(LIMIT);
        this.writer = null;
        if (killed.exitCode() != 128 + 9) {
            throw new AssertionError(where + ": the writer was not killed by SIGKILL: "
                    + killed);
        }
        return lastFlushed(killed.stdout(), where);
    }

    /** The count of the last complete {@code flushed N} line of {@code stdout}. */
    private static long lastFlushed(String stdout, String where) {
        String complete = stdout.substring(0, stdout.lastIndexOf('\n') + 1);
        List<String> lines = complete.lines().toList();
        String last = lines.get(lines.size() - 1);
        if (!last.matches("flushed \\d+")) {
            throw new AssertionError(where + ": the writer printed \"" + last + "\"");
        }
        return Long.parseLong(last.substring("flushed ".length()));
    }

    /**
     * Quire's and h5py's SWMR readers on the killed writer's file: the same extent, from the
     * flushed count to one batch more, every record ok. Returns the extent.
     */
    private long checkKilledFile(Path file, long flushed, int batch, String where)
            throws Exception {
        SwmrFollow.Arguments untilDead = new SwmrFollow.Arguments(file, "records", 0,
                LIMIT.toSeconds());
        SwmrFollow.Tally quire = SwmrFollow.follow(untilDead);
        String quireJson = quire.json(untilDead);
        if (!quire.clean() || quire.ok != quire.records) {
            throw new AssertionError(where + ": Quire's SWMR reader: " + quireJson);
        }
        long visible = quire.records;
        if (visible < flushed || visible > flushed + batch) {
            throw new AssertionError(where + ": Quire's SWMR reader sees " + visible
                    + " records, the writer flushed " + flushed + " before the kill (at most "
                    + "one more batch may be committed): " + quireJson);
        }
        QuireCommand.Result h5py = QuireCommand.runProcess(new ProcessBuilder(PYTHON.toString(),
                follower.toString(), file.toString(), "records", "--expect",
                Long.toString(flushed), "--timeout", Long.toString(LIMIT.toSeconds())), LIMIT);
        requireAll(h5py, visible, where + ": h5py's SWMR reader");
        return visible;
    }

    /**
     * After {@code quire h5 clear}: plain h5py reads every record, the extent {@code seen} or,
     * when clear replayed the journal of the flush in progress, that flush's, at most one batch
     * past the last flushed line (the writer prints it before it starts the next flush); h5dump
     * reads the records from the last flushed one on. Returns the extent.
     */
    private long checkCleared(Path file, long flushed, long seen, int batch, String where)
            throws Exception {
        QuireCommand.Result clear = QuireCommand.run(LIMIT, "h5", "clear", file.toString());
        if (clear.exitCode() != 0 || !clear.stdout().startsWith(file + ": cleared")) {
            throw new AssertionError(where + ": quire h5 clear: " + clear);
        }
        QuireCommand.Result plain = QuireCommand.runProcess(new ProcessBuilder(
                PYTHON.toString(), follower.toString(), file.toString(), "records", "--plain",
                "--expect", Long.toString(seen)), LIMIT);
        long visible = FollowerJson.counts(plain.stdout()).getOrDefault("records", -1L);
        if (visible < seen || visible > flushed + batch) {
            throw new AssertionError(where + ": after quire h5 clear plain h5py sees " + visible
                    + " records; the SWMR readers saw " + seen + ", the writer flushed "
                    + flushed + " in batches of " + batch + ": " + plain);
        }
        requireAll(plain, visible, where + ": plain h5py after quire h5 clear");
        long from = flushed - 1;
        QuireCommand.Result dump = QuireCommand.runProcess(new ProcessBuilder(h5dump.toString(),
                "-d", "/records", "-s", Long.toString(from), "-c", Long.toString(visible - from),
                file.toString()), LIMIT);
        boolean all = dump.exitCode() == 0
                && dump.stdout().contains("( " + visible + " ) / ( H5S_UNLIMITED )");
        for (long seq = from; seq < visible && all; seq++) {
            all = dump.stdout().contains("{\n" + " ".repeat(12) + seq + ",\n");
        }
        if (!all) {
            throw new AssertionError(where + ": h5dump of records " + from + " to "
                    + (visible - 1) + " after quire h5 clear: " + dump);
        }
        return visible;
    }

    private static void requireAll(QuireCommand.Result reader, long records, String who) {
        Map<String, Long> counts = FollowerJson.counts(reader.stdout());
        if (reader.exitCode() != 0 || !reader.stdout().contains("\"error\": null")
                || counts.getOrDefault("records", -1L) != records
                || counts.getOrDefault("ok", -1L) != records) {
            throw new AssertionError(who + " expected " + records + " records ok: " + reader);
        }
    }

    /** The file and what a writer or reader left beside it. */
    private void deleteFiles(Path file) throws IOException {
        String name = file.getFileName().toString();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path each : (Iterable<Path>) files::iterator) {
                if (each.getFileName().toString().startsWith(name)) {
                    Files.delete(each);
                }
            }
        }
    }
}
