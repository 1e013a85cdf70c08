package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.launcher.QuireCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A signal to {@code quire run} (or to a plain {@code java} worker) reaches every rank as a stop
 * request ({@code Job.stopRequested()}, {@code Job.onStopRequest}) instead of ending it; a rank
 * that ignores the request is killed when the grace period ends. Real launcher, real worker JVMs.
 */
class StopRequestIT {

    private static final Duration HANG = Duration.ofSeconds(90);

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mpj, TERM, 143", "hazelcast, TERM, 143", "mpj, INT, 130"})
    void aSignalToTheLauncherIsAStopRequestEveryRankObserves(String transport, String signal, int status,
            @TempDir Path markers) throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", transport,
                "--grace", "20", "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.StopsOnRequest",
                markers.toString());
        Map<Integer, Long> pids = FailFastIT.awaitPids(job, 3);
        new ProcessBuilder("kill", "-" + signal, Long.toString(job.process().pid())).start().waitFor();
        QuireCommand.Result result = job.await(HANG);
        assertEquals(status, result.exitCode(), result.toString());
        assertTrue(result.stderr().lines().toList().contains("quire run: received SIG" + signal + ", stopping 3 ranks"),
                result.toString());
        assertTrue(result.stderr().lines().toList().contains("quire run: every rank stopped cleanly (status 0)"),
                result.toString());
        assertFalse(result.stderr().contains("quire run: rank"), "no rank failed or was killed: " + result);
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(Files.exists(markers.resolve("stopped-" + rank)), "rank " + rank + " stopped: " + result);
            assertEquals("quire-stop-request", Files.readString(markers.resolve("hook-" + rank)),
                    "rank " + rank + "'s hook ran on the stop-request thread");
        }
        FailFastIT.assertAllGone(pids);
    }

    @Test
    void aRankThatIgnoresTheRequestIsKilledWhenTheGracePeriodEnds(@TempDir Path markers) throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--grace", "2",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.StopsOnRequest", markers.toString(), "1");
        Map<Integer, Long> pids = FailFastIT.awaitPids(job, 3);
        long signalled = System.nanoTime();
        new ProcessBuilder("kill", "-TERM", Long.toString(job.process().pid())).start().waitFor();
        QuireCommand.Result result = job.await(HANG);
        Duration took = Duration.ofNanos(System.nanoTime() - signalled);
        assertEquals(143, result.exitCode(), result.toString());
        assertTrue(result.stderr().lines().toList().contains(
                "quire run: rank 1 had not exited 2 s after its SIGTERM (--grace 2: the time to stop, write its last"
                        + " files and exit its JVM); killed it with SIGKILL"), result.toString());
        assertFalse(result.stderr().contains("every rank stopped cleanly"), result.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(2)) >= 0 && took.compareTo(Duration.ofSeconds(20)) < 0,
                "ended " + took.toMillis() + " ms after SIGTERM, with a 2 s grace period");
        assertTrue(Files.exists(markers.resolve("hook-0")), "rank 0 did observe the request");
        FailFastIT.assertAllGone(pids);
    }

    /** Without a launcher (a world of one): SIGUSR1, Slurm's usual warning signal, is a stop request too. */
    @Test
    void aPlainJavaWorkerTakesSigusr1AsAStopRequest(@TempDir Path markers) throws Exception {
        QuireCommand.Running worker = plainJava(markers);
        awaitPid(worker);
        new ProcessBuilder("kill", "-USR1", Long.toString(worker.process().pid())).start().waitFor();
        QuireCommand.Result result = worker.await(HANG);
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(Files.exists(markers.resolve("stopped-0")), result.toString());
        assertTrue(result.stderr().contains("quire: received SIGUSR1, stop requested"), result.toString());
    }

    /** Ctrl-C twice ends a program that ignores the request, with the status of a SIGINT. */
    @Test
    void aSecondSigintEndsAWorkerThatIgnoresTheRequest(@TempDir Path markers) throws Exception {
        QuireCommand.Running worker = plainJava(markers, "0");
        awaitPid(worker);
        new ProcessBuilder("kill", "-INT", Long.toString(worker.process().pid())).start().waitFor();
        Thread.sleep(500);
        assertTrue(worker.process().isAlive(), "one SIGINT only asks to stop");
        new ProcessBuilder("kill", "-INT", Long.toString(worker.process().pid())).start().waitFor();
        QuireCommand.Result result = worker.await(HANG);
        assertEquals(130, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("quire: received a second SIGINT, exiting"), result.toString());
    }

    private static QuireCommand.Running plainJava(Path markers, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of("java", "-cp",
                QuireCommand.repositoryRoot().resolve("launcher/target/lib") + "/*:" + QuireCommand.testWorkers(),
                "org.quire.launcher.workers.StopsOnRequest", markers.toString()));
        command.addAll(List.of(more));
        return QuireCommand.startProcess(new ProcessBuilder(command));
    }

    private static void awaitPid(QuireCommand.Running worker) throws InterruptedException {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (!worker.stdoutSoFar().contains("pid ") && worker.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(worker.stdoutSoFar().contains("pid "), "the worker started: " + worker.stdoutSoFar());
    }
}
