package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.launcher.QuireCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job whose rank fails, or that is signalled, ends at once with a status naming what happened;
 * no rank is left behind. The time limits are hang detectors, not performance targets. A launcher
 * this test kills with SIGKILL runs with its own {@code java.io.tmpdir}, deleted after the test:
 * it cannot remove its job's secret directory ({@code quire-job-*}) itself.
 */
class FailFastIT {

    private static final Duration HANG = Duration.ofSeconds(90);
    /** "A few seconds", generous for a loaded 2-core machine; a link closes within milliseconds. */
    private static final Duration ORPHAN_LIMIT = Duration.ofSeconds(10);
    private static final Pattern PID = Pattern.compile("^\\[(\\d+)] pid (\\d+)$", Pattern.MULTILINE);

    /** The launcher's {@code java.io.tmpdir}, where it makes its job's secret directory. */
    @TempDir
    Path launcherTemp;

    private Map<String, String> launcherTempEnvironment() {
        return Map.of("QUIRE_JAVA_OPTS", "-Djava.io.tmpdir=" + launcherTemp);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mpj", "hazelcast"})
    void aRankThatThrowsEndsTheJobWithItsStatus(String transport) throws Exception {
        QuireCommand.Result result = QuireCommand.start(launcherTempEnvironment(), "run", "-n", "4", "--transport",
                transport, "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.FailingRank", "2", "throw")
                .await(HANG);
        assertEquals(1, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire run: rank 2 exited with status 1; stopping the other 3 ranks"),
                result.toString());
        assertTrue(result.stderr().contains("[2] Exception in thread \"main\" java.lang.IllegalStateException: rank 2"
                + " fails on purpose"), result.toString());
        assertFalse(result.stdout().contains("should be impossible"), result.toString());
        try (Stream<Path> left = Files.list(launcherTemp)) {
            assertEquals(List.of(), left.toList(), "the launcher removes its job's secret directory");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mpj", "hazelcast"})
    void aRankThatThrowsOutOfTryWithResourcesEndsTheJob(String transport) throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "3", "--transport", transport,
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.FailingInTry", "1");
        assertEquals(1, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire run: rank 1 exited with status 1; stopping the other 2 ranks"),
                result.toString());
        assertTrue(result.stderr().contains("[1] Exception in thread \"main\" java.lang.IllegalStateException: rank 1"
                + " fails inside try-with-resources"), result.toString());
        assertFalse(result.stdout().contains("should be impossible"), result.toString());
    }

    @Test
    void theFailingRanksExitStatusIsTheJobsStatus() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "3", "-cp", QuireCommand.testWorkers(),
                "org.quire.launcher.workers.FailingRank", "1", "exit=7");
        assertEquals(7, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire run: rank 1 exited with status 7; stopping the other 2 ranks"),
                result.toString());
    }

    @Test
    void aRankKilledWithSigkillWhileOthersWaitInABarrierEndsTheJob() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "-cp", QuireCommand.testWorkers(),
                "org.quire.launcher.workers.Blocked", "1");
        Map<Integer, Long> pids = awaitPids(job, 3);
        new ProcessBuilder("kill", "-KILL", Long.toString(pids.get(1))).start().waitFor();
        QuireCommand.Result result = job.await(HANG);
        assertEquals(137, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire run: rank 1 was killed by SIGKILL (status 137); stopping the other 2"
                + " ranks"), result.toString());
        assertAllGone(pids);
    }

    /**
     * A stuck job: --show-pids names each rank's process, and kill -QUIT of one makes its JVM print
     * its thread dump, which arrives prefixed with its rank; the job goes on until it is stopped.
     */
    @Test
    void showPidsLetsAStuckRankDumpItsThreadsWithItsPrefix() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "2", "--show-pids", "-cp",
                QuireCommand.testWorkers(), "org.quire.launcher.workers.Blocked", "-1");
        Map<Integer, Long> pids = awaitPids(job, 2);
        new ProcessBuilder("kill", "-QUIT", Long.toString(pids.get(1))).start().waitFor();
        long deadline = System.nanoTime() + HANG.toNanos();
        // The dump arrives line by line: wait for the main thread's line, not only the header.
        while (!mainThreadDumped(job) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(mainThreadDumped(job), "rank 1's main thread in its dump: " + job.stdoutSoFar());
        assertTrue(job.process().isAlive(), "a thread dump does not end the job");
        new ProcessBuilder("kill", "-TERM", Long.toString(job.process().pid())).start().waitFor();
        QuireCommand.Result result = job.await(HANG);
        assertEquals(143, result.exitCode(), result.toString());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(result.stderr().lines().toList().contains("quire run: rank " + rank + " is process "
                    + pids.get(rank)), result.toString());
        }
    }

    private static boolean mainThreadDumped(QuireCommand.Running job) {
        return job.stdoutSoFar().lines().anyMatch(line -> line.startsWith("[1] \"main\""));
    }

    @Test
    void ranksStopThemselvesWhenTheLauncherIsKilled() throws Exception {
        QuireCommand.Running job = QuireCommand.start(launcherTempEnvironment(), "run", "-n", "2", "-cp",
                QuireCommand.testWorkers(), "org.quire.launcher.workers.Blocked", "-1");
        Map<Integer, Long> pids = awaitPids(job, 2);
        job.process().destroyForcibly(); // SIGKILL: the launcher cannot clean up
        job.process().waitFor();
        long deadline = System.nanoTime() + HANG.toNanos();
        while (pids.values().stream().anyMatch(FailFastIT::alive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertAllGone(pids);
    }

    /**
     * The launcher is SIGKILLed under a parent that never reaps it (a shell that started it and
     * then became {@code sleep}), so it stays a zombie: every rank still leaves within seconds.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mpj", "hazelcast"})
    void ranksLeaveWithinSecondsWhenTheLauncherIsKilledAndNobodyReapsIt(String transport) throws Exception {
        killTheUnreapedLauncherAndAwaitTheRanks(transport, "org.quire.launcher.workers.Blocked", "-1",
                launcherTempEnvironment());
    }

    /**
     * The same while every rank is still in its own code before {@code Quire.init} (it sleeps 20 s
     * there): the launcher link opens before the worker's main runs, so they leave within seconds too.
     */
    @Test
    void ranksThatHaveNotReachedInitLeaveWhenTheLauncherIsKilledAndNobodyReapsIt() throws Exception {
        killTheUnreapedLauncherAndAwaitTheRanks("mpj", "org.quire.launcher.workers.SlowStarter", "20",
                launcherTempEnvironment());
    }

    /** Starts 3 ranks of {@code main} under a parent that never reaps quire, SIGKILLs quire once all printed their pid. */
    private static void killTheUnreapedLauncherAndAwaitTheRanks(String transport, String main, String argument,
                                                                Map<String, String> environment) throws Exception {
        ProcessBuilder wrapper = new ProcessBuilder("bash", "-c", "\"$0\" \"$@\" </dev/null & echo \"launcher $!\";"
                + " exec sleep 600", QuireCommand.repositoryRoot().resolve("quire").toString(), "run", "-n", "3",
                "--transport", transport, "-cp", QuireCommand.testWorkers(), main, argument);
        wrapper.environment().putAll(environment);
        QuireCommand.Running job = QuireCommand.startProcess(wrapper);
        try {
            Map<Integer, Long> pids = awaitPids(job, 3);
            Matcher launcher = Pattern.compile("^launcher (\\d+)$", Pattern.MULTILINE).matcher(job.stdoutSoFar());
            assertTrue(launcher.find(), job.stdoutSoFar());
            long launcherPid = Long.parseLong(launcher.group(1));
            new ProcessBuilder("kill", "-KILL", Long.toString(launcherPid)).start().waitFor();
            long killed = System.nanoTime();
            while (pids.values().stream().anyMatch(FailFastIT::alive)
                    && System.nanoTime() - killed < ORPHAN_LIMIT.toNanos()) {
                Thread.sleep(100);
            }
            long tookMillis = (System.nanoTime() - killed) / 1_000_000;
            assertEquals("Z", processState(launcherPid), "the launcher must still be an unreaped zombie");
            assertAllGone(pids);
            assertTrue(tookMillis < ORPHAN_LIMIT.toMillis(), "ranks left after " + tookMillis + " ms");
        } finally {
            job.process().destroyForcibly(); // the sleeping wrapper, which then lets init reap the zombie
        }
    }

    /** The state letter of /proc/PID/stat (R, S, Z, ...). */
    private static String processState(long pid) throws java.io.IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }

    /** Waits until every rank printed "pid N" (after its first barrier); returns rank to pid. */
    static Map<Integer, Long> awaitPids(QuireCommand.Running job, int ranks) throws InterruptedException {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher m = PID.matcher(job.stdoutSoFar());
            Map<Integer, Long> pids = new java.util.TreeMap<>();
            while (m.find()) {
                pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
            if (pids.size() == ranks) {
                return pids;
            }
            if (!job.process().isAlive()) {
                throw new AssertionError("the job ended before every rank started:\n" + job.await(HANG));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("ranks did not all start within " + HANG + ":\n" + job.stdoutSoFar());
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static void assertAllGone(Map<Integer, Long> pids) {
        List<Long> alive = pids.values().stream().filter(FailFastIT::alive).toList();
        alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertTrue(alive.isEmpty(), "ranks still running: " + alive);
    }
}
