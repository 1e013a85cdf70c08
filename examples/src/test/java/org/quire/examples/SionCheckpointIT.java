package org.quire.examples;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionTask;
import org.quire.launcher.QuireCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link SionCheckpoint} as real jobs of separate JVMs under {@code quire run}: a SION container
 * written by N ranks and read back by as many ranks and on other rank counts, and the same job
 * killed with SIGKILL at random points after some {@code flush()}es, then closed by
 * {@code quire sion recover}: every task must hold a prefix of what its rank wrote, at least as
 * long as the last flush the rank reported, and a job on one rank more reads the recovered file
 * back mapped.
 */
class SionCheckpointIT {

    private static final Duration JOB_LIMIT = Duration.ofMinutes(2);
    private static final int RECORDS = 40;
    private static final Pattern PID = Pattern.compile("^\\[(\\d+)] pid \\d+ (\\d+)$", Pattern.MULTILINE);
    private static final Pattern FLUSHED = Pattern.compile("^\\[\\d+] flushed (\\d+) (\\d+)$", Pattern.MULTILINE);
    /** Seed of the kill points; print and pass with -Dquire.crash.seed=... to replay a run. */
    private static final long CRASH_SEED = Long.getLong("quire.crash.seed", new SplittableRandom().nextLong());
    private static final Pattern RECOVERED = Pattern.compile("^task (\\d+) \\(globalrank \\d+, file \\d+\\): (\\d+) bytes",
            Pattern.MULTILINE);

    @TempDir
    Path directory;

    private static String examplesJar() {
        return QuireCommand.repositoryRoot().resolve("examples/target/quire-examples.jar").toString();
    }

    private static QuireCommand.Result checkpoint(int ranks, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(ranks), "-cp", examplesJar(),
                "org.quire.examples.SionCheckpoint"));
        command.addAll(List.of(arguments));
        return QuireCommand.run(JOB_LIMIT, command.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0} writers, {1} files, read back by {0} and {2} ranks")
    @CsvSource({"1,1,0", "2,2,0", "4,1,0", "8,2,3", "3,1,5"})
    void containerWrittenByRealRanksIsReadBackByOwnTaskAndMappedReaders(int ranks, int files, int mappedReaders)
            throws Exception {
        Path name = directory.resolve("ckpt.sion");
        QuireCommand.Result write = checkpoint(ranks, "write", name.toString(), Integer.toString(files),
                Integer.toString(RECORDS));
        assertEquals(0, write.exitCode(), write.toString());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(write.stdout().contains("[" + rank + "] wrote " + rank + " " + CheckpointStream.length(rank, RECORDS)
                    + "\n"), write.toString());
        }
        assertFalse(Files.exists(SionFileNames.journal(name)), "close removes the journal");

        try (SionFile sion = SionFile.open(name)) {
            assertEquals(ranks, sion.taskCount());
            assertEquals(files, sion.physicalFiles().size());
            for (SionTask task : sion.tasks()) {
                byte[] stream = sion.readFully(task.index());
                assertEquals(CheckpointStream.length(task.index(), RECORDS), stream.length, "task " + task.index());
                assertEquals(-1, CheckpointStream.firstMismatch(task.index(), stream), "task " + task.index());
                assertTrue(task.chunkCount() > 3, "the stream spans several chunks");
            }
        }

        String verified = "[0] verified " + ranks + " tasks, ";
        QuireCommand.Result own = checkpoint(ranks, "read-own", name.toString(), Integer.toString(RECORDS));
        assertEquals(0, own.exitCode(), own.toString());
        assertTrue(own.stdout().contains(verified) && own.stdout().contains("on " + ranks + " ranks (own task): every byte"
                + " as written"), own.toString());
        if (mappedReaders > 0) {
            QuireCommand.Result mapped = checkpoint(mappedReaders, "read-mapped", name.toString(),
                    Integer.toString(RECORDS));
            assertEquals(0, mapped.exitCode(), mapped.toString());
            assertTrue(mapped.stdout().contains(verified) && mapped.stdout().contains("on " + mappedReaders
                    + " ranks (mapped): every byte as written"), mapped.toString());
        }
    }

    @ParameterizedTest(name = "{0} ranks, {1} files, kill {2}, run {3}")
    @CsvSource({"4,2,all,1", "4,2,all,2", "3,1,one,1", "3,1,one,2"})
    void jobKilledAfterFlushesIsRecoveredWithEveryFlushedByte(int ranks, int files, String kill, int run)
            throws Exception {
        long seed = Objects.hash(CRASH_SEED, ranks, files, kill, run);
        System.out.println("SionCheckpointIT: -Dquire.crash.seed=" + CRASH_SEED + ", " + ranks + " ranks, kill " + kill
                + ", run " + run + ": case seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        int flushesPerRankBeforeKill = 3 + random.nextInt(8);
        long extraMillis = random.nextInt(200);
        int flushEvery = 2 + random.nextInt(3);

        Path name = directory.resolve("crash.sion");
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", Integer.toString(ranks), "-cp",
                examplesJar(), "org.quire.examples.SionCheckpoint", "write", name.toString(), Integer.toString(files),
                "1000000", Integer.toString(flushEvery), "5");
        long[] pids = awaitPidsAndFlushes(job, ranks, flushesPerRankBeforeKill);
        Thread.sleep(extraMillis);
        if (kill.equals("all")) {
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        } else {
            ProcessHandle.of(pids[random.nextInt(ranks)]).ifPresent(ProcessHandle::destroyForcibly);
        }
        QuireCommand.Result killed = job.await(JOB_LIMIT);
        assertEquals(128 + 9, killed.exitCode(), "the job ends with the SIGKILLed rank's status\n" + killed);
        long[] lastFlushed = lastFlushedPerRank(killed.stdout(), ranks);
        assertTrue(Files.exists(SionFileNames.journal(name)), "a crashed job leaves its journal");

        QuireCommand.Result recover = QuireCommand.run(JOB_LIMIT, "sion", "recover", name.toString());
        assertEquals(0, recover.exitCode(), recover.toString());
        long[] reported = new long[ranks];
        Matcher task = RECOVERED.matcher(recover.stdout());
        while (task.find()) {
            reported[Integer.parseInt(task.group(1))] = Long.parseLong(task.group(2));
        }

        try (SionFile sion = SionFile.open(name)) {
            assertEquals(ranks, sion.taskCount());
            for (int rank = 0; rank < ranks; rank++) {
                byte[] stream = sion.readFully(rank);
                String context = "-Dquire.crash.seed=" + CRASH_SEED + ", rank " + rank + ", last flush "
                        + lastFlushed[rank] + "\n" + recover;
                assertEquals(-1, CheckpointStream.firstMismatch(rank, stream), "a prefix of what rank wrote; " + context);
                assertTrue(stream.length >= lastFlushed[rank], "lost flushed bytes: recovered " + stream.length + "; "
                        + context);
                assertEquals(reported[rank], stream.length, context);
            }
        }
        assertTrue(Arrays.stream(lastFlushed).sum() > 0, "the kill came after flushes: " + Arrays.toString(lastFlushed));

        // Restart: a job on another rank count reads the recovered file, mapped.
        QuireCommand.Result restart = checkpoint(ranks + 1, "read-mapped", name.toString(), "prefix");
        assertEquals(0, restart.exitCode(), restart.toString());
        assertTrue(restart.stdout().contains("[0] verified " + ranks + " tasks, " + Arrays.stream(reported).sum()
                + " bytes on " + (ranks + 1) + " ranks (mapped): every byte as written (prefixes)"), restart.toString());
    }

    /** Waits until every rank printed its pid and at least {@code flushes} flush lines. */
    private static long[] awaitPidsAndFlushes(QuireCommand.Running job, int ranks, int flushes) throws Exception {
        long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            String out = job.stdoutSoFar();
            long[] pids = new long[ranks];
            int found = 0;
            Matcher pid = PID.matcher(out);
            while (pid.find()) {
                pids[Integer.parseInt(pid.group(1))] = Long.parseLong(pid.group(2));
                found++;
            }
            int[] flushLines = new int[ranks];
            FLUSHED.matcher(out).results().forEach(line -> flushLines[Integer.parseInt(line.group(1))]++);
            if (found == ranks && Arrays.stream(flushLines).min().orElseThrow() >= flushes) {
                return pids;
            }
            if (!job.process().isAlive()) {
                fail("the job ended before the kill:\n" + job.await(JOB_LIMIT));
            }
            Thread.sleep(20);
        }
        job.process().descendants().forEach(ProcessHandle::destroyForcibly);
        job.process().destroyForcibly();
        throw new AssertionError("no " + flushes + " flushes within " + JOB_LIMIT + ":\n" + job.stdoutSoFar());
    }

    private static long[] lastFlushedPerRank(String stdout, int ranks) {
        long[] last = new long[ranks];
        Matcher flushed = FLUSHED.matcher(stdout);
        while (flushed.find()) {
            int rank = Integer.parseInt(flushed.group(1));
            last[rank] = Math.max(last[rank], Long.parseLong(flushed.group(2)));
        }
        return last;
    }
}
