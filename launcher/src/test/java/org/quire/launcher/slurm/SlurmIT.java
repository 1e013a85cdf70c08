package org.quire.launcher.slurm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;
import org.quire.runtime.JobSecret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real Slurm: a one-node cluster (slurmctld, slurmd, munged) brought up by
 * {@code slurm/local-cluster.sh}, and jobs submitted with {@code srun} and {@code sbatch}.
 */
class SlurmIT {

    private static final Path ROOT = QuireCommand.repositoryRoot();
    private static boolean startedHere;
    /** The steps' job secret, as a submitting user would create it (docs/security.md). */
    @TempDir
    static Path secretDirectory;
    private static String secretFile;

    @BeforeAll
    static void bringUpTheCluster() throws Exception {
        RequiredTool.require("srun", "Debian package slurm-wlm");
        RequiredTool.require("munge", "Debian package munge");
        Output up = exec(Map.of(), 60, "bash", ROOT.resolve("slurm/local-cluster.sh").toString(), "up");
        assertEquals(0, up.status(), up.text());
        startedHere = !up.text().contains("already up");
        Path secret = secretDirectory.resolve("job.secret");
        JobSecret.generate().writeTo(secret);
        secretFile = secret.toString();
    }

    @AfterAll
    static void bringDownWhatWeStarted() throws Exception {
        if (startedHere) {
            exec(Map.of(), 60, "bash", ROOT.resolve("slurm/local-cluster.sh").toString(), "down");
        }
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

    @Test
    void srunWithKillOnBadExitEndsAStepWhoseRankFailed() throws Exception {
        Output run = exec(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secretFile), 120,
                "srun", "-K", "--immediate=30", "-n", "3",
                "java", "-cp", quireClassPath() + ":" + QuireCommand.testWorkers(),
                "org.quire.launcher.workers.FailingRank", "1", "exit=5");
        assertNotEquals(0, run.status(), run.text());
        assertTrue(run.text().contains("task 1: Exited with exit code 5"), run.text());
    }

    @Test
    void theBatchScriptRunsAWorkerAsAJob(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("job.out");
        Output submit = exec(Map.of("QUIRE_HOME", ROOT.toString(), "QUIRE_CLASSPATH", QuireCommand.testWorkers()), 60,
                "sbatch", "--parsable", "--ntasks=4", "--output=" + output,
                ROOT.resolve("slurm/quire-job.sbatch").toString(), "org.quire.launcher.workers.PrintArguments", "a b",
                "c");
        assertEquals(0, submit.status(), submit.text());
        String jobId = submit.text().strip();
        String state = awaitJobEnd(jobId);
        String printed = Files.exists(output) ? Files.readString(output) : "(no output file)";
        assertTrue(state.contains("JobState=COMPLETED") && state.contains("ExitCode=0:0"), state + "\n" + printed);
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(printed.lines().toList().contains(rank + ": args=a b|c"), printed);
        }
    }

    /** Polls scontrol (sbatch --wait polls every 10 s) until the job is no longer pending or running. */
    private static String awaitJobEnd(String jobId) throws Exception {
        Pattern statePattern = Pattern.compile("JobState=(\\w+)");
        for (int i = 0; i < 1200; i++) {
            String state = exec(Map.of(), 30, "scontrol", "show", "job", jobId).text();
            Matcher m = statePattern.matcher(state);
            if (m.find() && !List.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING").contains(m.group(1))) {
                return state;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + jobId + " did not end within 120 s");
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
