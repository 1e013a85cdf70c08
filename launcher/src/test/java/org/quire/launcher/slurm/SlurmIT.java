package org.quire.launcher.slurm;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.launcher.QuireCommand;
import org.quire.runtime.JobSecret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real Slurm: a cluster of two nodes on this machine (slurmctld, two slurmd, munged) brought up by
 * {@code slurm/local-cluster.sh}, and jobs submitted with {@code srun} and {@code sbatch}.
 */
@ExtendWith(LocalSlurmCluster.class)
class SlurmIT {

    private static final Path ROOT = QuireCommand.repositoryRoot();
    /** The steps' job secret, as a submitting user would create it (docs/security.md). */
    @TempDir
    static Path secretDirectory;
    private static String secretFile;

    @BeforeAll
    static void writeTheSecret() throws Exception {
        Path secret = secretDirectory.resolve("job.secret");
        JobSecret.generate().writeTo(secret);
        secretFile = secret.toString();
    }

    private static String quireClassPath() {
        return ROOT.resolve("launcher/target/lib") + "/*:/usr/share/java/mpj.jar";
    }

    @Test
    void theContractWorkerRunsUnderSrunOverMpj() throws Exception {
        Output run = exec(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile), 120,
                "srun", "-K", "--immediate=30", "-l", "-n", "4",
                "java", "-cp", quireClassPath(), "org.quire.runtime.check.CommunicatorContract");
        assertEquals(0, run.status(), run.text());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(run.text().contains(rank + ": communicator contract holds: rank " + rank + " of 4, 90 checks"),
                    run.text());
        }
    }

    @Test
    void theContractWorkerRunsUnderSrunOverHazelcast() throws Exception {
        Output run = exec(Map.of("QUIRE_TRANSPORT", "hazelcast", "QUIRE_SECRET_FILE", secretFile), 120,
                "srun", "-K", "--immediate=30", "-l", "-n", "3",
                "java", "-Dhazelcast.logging.type=none", "-cp", quireClassPath(),
                "org.quire.runtime.check.CommunicatorContract");
        assertEquals(0, run.status(), run.text());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(run.text().contains(rank + ": communicator contract holds: rank " + rank + " of 3, 81 checks"),
                    run.text());
        }
    }

    /** {@code srun -N 2 -n 4}: the world forms across both nodes from Slurm's environment alone. */
    @ParameterizedTest
    @ValueSource(strings = {"mpj", "hazelcast"})
    void aStepOnTwoNodesFormsOneWorld(String transport) throws Exception {
        Output run = exec(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile,
                "QUIRE_TRANSPORT", transport), 120,
                "srun", "-K", "--immediate=30", "-N", "2", "-n", "4", "--ntasks-per-node=2",
                "java", "-Dhazelcast.logging.type=none", "-cp", quireClassPath() + ":" + QuireCommand.testWorkers(),
                "org.quire.launcher.workers.ReportNode");
        assertEquals(0, run.status(), run.text());
        List<String> lines = run.text().lines().toList();
        for (int rank = 0; rank < 4; rank++) {
            String node = rank < 2 ? "node1" : "node2";
            assertTrue(lines.contains("rank " + rank + " of 4 on " + node + ": rank sum 6"), run.text());
        }
    }

    /**
     * {@code scancel --signal=USR1} (what Slurm's {@code --signal=USR1@SECONDS} warning sends) reaches
     * every task of an {@code srun} step as a stop request: each rank writes its marker and the
     * step ends with status 0.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mpj", "hazelcast"})
    void sigusr1ToAStepIsAStopRequestEveryRankObserves(String transport, @TempDir Path markers) throws Exception {
        String name = "quire-usr1-" + transport + "-" + ProcessHandle.current().pid();
        ProcessBuilder srun = new ProcessBuilder("srun", "-K", "--immediate=30", "-l", "-N", "2", "-n", "3",
                "--job-name=" + name, "java", "-Dhazelcast.logging.type=none", "-cp",
                quireClassPath() + ":" + QuireCommand.testWorkers(), "org.quire.launcher.workers.StopsOnRequest",
                markers.toString());
        srun.environment().putAll(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile,
                "QUIRE_TRANSPORT", transport));
        QuireCommand.Running step = QuireCommand.startProcess(srun.redirectErrorStream(true));
        awaitWorkerPids(step, 3);
        String jobId = exec(Map.of(), 30, "squeue", "-h", "-n", name, "-o", "%i").text().strip();
        awaitStepRunning(jobId);
        Output signal = exec(Map.of(), 30, "scancel", "--signal=USR1", jobId);
        assertEquals(0, signal.status(), signal.text());
        QuireCommand.Result ended = step.await(Duration.ofSeconds(60));
        assertEquals(0, ended.exitCode(), ended.toString());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(Files.exists(markers.resolve("stopped-" + rank)), "rank " + rank + ": " + ended);
            assertTrue(ended.stdout().contains(rank + ": quire: received SIGUSR1, stop requested"), ended.toString());
        }
    }

    @Test
    void srunWithKillOnBadExitEndsAStepWhoseRankFailed() throws Exception {
        Output run = exec(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile), 120,
                "srun", "-K", "--immediate=30", "-n", "3",
                "java", "-cp", quireClassPath() + ":" + QuireCommand.testWorkers(),
                "org.quire.launcher.workers.FailingRank", "1", "exit=5");
        assertNotEquals(0, run.status(), run.text());
        assertTrue(run.text().contains("task 1: Exited with exit code 5"), run.text());
    }

    /**
     * A step whose ranks have formed a world and wait in a barrier is cancelled with
     * {@code scancel}: every worker JVM (pids from the ranks' own output) is gone within seconds.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mpj", "hazelcast"})
    void noWorkerOutlivesACancelledStep(String transport) throws Exception {
        String name = "quire-scancel-" + transport + "-" + ProcessHandle.current().pid();
        ProcessBuilder srun = new ProcessBuilder("srun", "-K", "--immediate=30", "-l", "-n", "3", "--job-name=" + name,
                "java", "-Dhazelcast.logging.type=none", "-cp", quireClassPath() + ":" + QuireCommand.testWorkers(),
                "org.quire.launcher.workers.Blocked", "1");
        srun.environment().putAll(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile,
                "QUIRE_TRANSPORT", transport));
        QuireCommand.Running step = QuireCommand.startProcess(srun.redirectErrorStream(true));
        Map<Integer, Long> workers = awaitWorkerPids(step, 3);
        String jobId = exec(Map.of(), 30, "squeue", "-h", "-n", name, "-o", "%i").text().strip();
        assertTrue(jobId.matches("\\d+"), "the step's job id from squeue: " + jobId);
        awaitStepRunning(jobId);
        Output cancel = exec(Map.of(), 30, "scancel", jobId);
        assertEquals(0, cancel.status(), cancel.text());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (workers.values().stream().anyMatch(SlurmIT::alive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Map<Integer, Long> left = new TreeMap<>(workers);
        left.values().removeIf(pid -> !alive(pid));
        left.values().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertEquals(Map.of(), left, "ranks (rank=pid) still running 10 s after scancel " + jobId + ":\n"
                + step.stdoutSoFar());
        QuireCommand.Result ended = step.await(Duration.ofSeconds(30));
        assertNotEquals(0, ended.exitCode(), ended.toString());
    }

    /**
     * Waits until slurmctld has the job RUNNING with its step 0 registered: a job cancelled earlier
     * (still CONFIGURING just after the cluster came up) was seen to get no signal for over 10 s.
     */
    private static void awaitStepRunning(String jobId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            String job = exec(Map.of(), 30, "scontrol", "show", "job", jobId).text();
            String steps = exec(Map.of(), 30, "squeue", "-h", "-s", "-j", jobId, "-o", "%i").text();
            if (job.contains("JobState=RUNNING") && steps.lines().anyMatch(l -> l.strip().equals(jobId + ".0"))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + jobId + " is not RUNNING with step 0 within 60 s");
    }

    /** The pid each rank prints (as {@code "r: pid N"} under {@code srun -l}) once the world has formed. */
    private static Map<Integer, Long> awaitWorkerPids(QuireCommand.Running step, int ranks) throws Exception {
        Pattern line = Pattern.compile("(?m)^(\\d+): pid (\\d+)$");
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            Map<Integer, Long> pids = new TreeMap<>();
            Matcher m = line.matcher(step.stdoutSoFar());
            while (m.find()) {
                pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
            if (pids.size() == ranks) {
                return pids;
            }
            if (!step.process().isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        step.process().destroyForcibly();
        throw new AssertionError("the step's " + ranks + " ranks did not all print their pid:\n" + step.stdoutSoFar());
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void theBatchScriptRunsAWorkerAsAJob(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("job.out");
        String jobId = LocalSlurmCluster.submit(Map.of("QUIRE_HOME", ROOT.toString(), "QUIRE_CLASSPATH",
                QuireCommand.testWorkers()), "--ntasks=4", "--output=" + output,
                ROOT.resolve("slurm/quire-job.sbatch").toString(), "org.quire.launcher.workers.PrintArguments", "a b",
                "c");
        LocalSlurmCluster.awaitJobCompleted(jobId, Duration.ofSeconds(120), output);
        String printed = Files.readString(output);
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(printed.lines().toList().contains(rank + ": args=a b|c"), printed);
        }
    }

    private record Output(int status, String text) {
    }

    private static Output exec(Map<String, String> env, int seconds, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        QuireCommand.Result result = QuireCommand.runProcess(builder, Duration.ofSeconds(seconds));
        return new Output(result.exitCode(), result.stdout());
    }
}
