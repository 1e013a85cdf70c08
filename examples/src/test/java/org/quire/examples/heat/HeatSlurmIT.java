package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.launcher.slurm.LocalSlurmCluster.jobOutput;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.slurm.LocalSlurmCluster;
import org.quire.runtime.JobSecret;

/**
 * {@link HeatDiffusion} under real Slurm on the two nodes of {@code slurm/local-cluster.sh}: as
 * the batch job {@code slurm/heat.sbatch}, stopped by the signal a time limit's warning sends and
 * resumed by the job the script submits, and as {@code srun -N 2} steps restarted on another rank
 * count; every run ends bitwise identical to an uninterrupted one (grid 256 keeps the jobs short).
 */
@ExtendWith(LocalSlurmCluster.class)
class HeatSlurmIT {

    private static final Path ROOT = QuireCommand.repositoryRoot();
    private static final Duration JOB_LIMIT = Duration.ofMinutes(3);
    private static final String VERIFIED = "0: verify: final grid bitwise identical to an uninterrupted run (65536 cells)";

    /**
     * The first job gets SIGUSR1 (what {@code --signal=USR1@60} sends before the time limit; sent here
     * with {@code scancel --signal=USR1} once a checkpoint shows the ranks run, as Slurm's own warning
     * comes up to a minute early and could hit a JVM before it is a Quire worker), checkpoints and
     * ends COMPLETED; the job it submitted restarts from that checkpoint, reaches the last step and
     * verifies; both jobs ran on both nodes.
     */
    @Test
    void aBatchJobStoppedBeforeItsTimeLimitResumesInTheJobItSubmitsAndVerifies(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("heat.out");
        Path checkpoints = dir.resolve("ckpt");
        String firstJob = LocalSlurmCluster.submit(Map.of("QUIRE_HOME", ROOT.toString(),
                "QUIRE_SECRET_DIR", dir.resolve("secrets").toString()), "--nodes=2", "--ntasks=4", "--time=10",
                "--output=" + output, ROOT.resolve("slurm/heat.sbatch").toString(), checkpoints.toString(), "400",
                "--grid", "256", "--checkpoint-every", "100");
        awaitOutputLine(output, "0: checkpoint step 100: " + checkpoints.resolve("heat-100.sion") + ", ");
        QuireCommand.Result signal = QuireCommand.runProcess(new ProcessBuilder("scancel", "--signal=USR1", firstJob)
                .redirectErrorStream(true), Duration.ofSeconds(30));
        assertEquals(0, signal.exitCode(), signal.toString());

        assertRanOnBothNodes(LocalSlurmCluster.awaitJobCompleted(firstJob, JOB_LIMIT, output), output);
        Matcher next = Pattern.compile("(?m)^quire-batch: " + Pattern.quote(checkpoints.resolve("heat-400.sion")
                + " missing: submitted job ") + "(\\d+) \\(resubmission 1\\) to resume after job " + firstJob + "$")
                .matcher(Files.readString(output));
        assertTrue(next.find(), jobOutput(output));
        assertRanOnBothNodes(LocalSlurmCluster.awaitJobCompleted(next.group(1), JOB_LIMIT, output), output);

        String log = Files.readString(output);
        Matcher stopped = Pattern.compile("(?m)^0: heat: stopped on request at step (\\d+) ").matcher(log);
        assertTrue(stopped.find(), log);
        String step = stopped.group(1);
        assertTrue(Integer.parseInt(step) < 400, log);
        List<String> lines = log.lines().toList();
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(lines.contains(rank + ": quire: received SIGUSR1, stop requested"), log);
        }
        assertTrue(lines.contains("0: verify: skipped: stopped at step " + step
                + " before step 400; the run that reaches it verifies"), log);
        assertTrue(lines.contains("0: restart: from step " + step + " of " + checkpoints.resolve("heat-" + step + ".sion")
                + " on 4 ranks"), log);
        assertTrue(log.contains("0: heat: done at step 400 after "), log);
        assertTrue(lines.contains(VERIFIED), log);
        assertFalse(log.contains("resubmission 2"), log);
    }

    /**
     * {@code srun -N 2 -n 4}, two ranks per node, to step 150, then {@code srun -N 2 -n 3} restarted
     * from its last checkpoint to step 250: both runs end with an uninterrupted run's bits.
     */
    @Test
    void stepsOnTwoNodesRestartOnAnotherRankCountBitwiseIdentical(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("job.secret");
        JobSecret.generate().writeTo(secret);
        Path checkpoints = dir.resolve("ckpt");
        QuireCommand.Result four = srun(secret, "4", "--ntasks-per-node=2", "--steps", "150", "--checkpoint-every",
                "100", "--dir", checkpoints.toString(), "--grid", "256");
        assertEquals(0, four.exitCode(), four.toString());
        List<String> lines = four.stdoutLines();
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(lines.contains(rank + ": on node" + (rank < 2 ? 1 : 2)), four.toString());
        }
        assertTrue(four.stdout().contains("0: checkpoint step 150: " + checkpoints.resolve("heat-150.sion")),
                four.toString());
        assertTrue(lines.contains(VERIFIED), four.toString());

        QuireCommand.Result three = srun(secret, "3", "--ntasks-per-node=2", "--steps", "250", "--checkpoint-every",
                "100", "--dir", checkpoints.toString(), "--restart");
        assertEquals(0, three.exitCode(), three.toString());
        assertTrue(three.stdoutLines().contains("0: restart: from step 150 of " + checkpoints.resolve("heat-150.sion")
                + " on 3 ranks"), three.toString());
        assertTrue(three.stdoutLines().contains("2: on node2"), three.toString());
        assertTrue(three.stdoutLines().contains(VERIFIED), three.toString());
    }

    /** HeatDiffusion with --verify on {@code ranks} tasks over both nodes; each task first says where it runs. */
    private static QuireCommand.Result srun(Path secret, String ranks, String distribution, String... heatArguments)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("srun", "-K", "--immediate=30", "-l", "-N", "2", "-n", ranks,
                distribution, "sh", "-c", "echo \"on $SLURMD_NODENAME\"; exec \"$@\"", "sh",
                "java", "-cp", ROOT.resolve("launcher/target/lib") + "/*:/usr/share/java/mpj.jar:"
                        + ROOT.resolve("examples/target/quire-examples.jar"),
                "org.quire.examples.heat.HeatDiffusion", "--verify"));
        command.addAll(List.of(heatArguments));
        ProcessBuilder srun = new ProcessBuilder(command).redirectErrorStream(true);
        srun.environment().putAll(Map.of("MPJ_HOME", "/usr/share/mpj", "QUIRE_SECRET_FILE", secret.toString()));
        return QuireCommand.runProcess(srun, JOB_LIMIT);
    }

    private static void assertRanOnBothNodes(String job, Path output) throws Exception {
        assertTrue(job.contains("NodeList=node[1-2]"), job + jobOutput(output));
    }

    private static void awaitOutputLine(Path output, String prefix) throws Exception {
        long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(output) && Files.readAllLines(output).stream().anyMatch(l -> l.startsWith(prefix))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no line \"" + prefix + "\" within " + JOB_LIMIT + jobOutput(output));
    }
}
