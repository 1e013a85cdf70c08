package org.quire.launcher.slurm;

import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The real Slurm cluster of {@code slurm/local-cluster.sh} (two nodes on this machine) for the
 * tests that submit jobs: brought up unless it runs, brought down only by whoever brought it up.
 */
public final class LocalSlurmCluster {

    private LocalSlurmCluster() {
    }

    /** Brings the cluster up; returns whether it was started here (and so is to be brought down). */
    public static boolean up() throws Exception {
        RequiredTool.require("srun", "Debian package slurm-wlm");
        RequiredTool.require("munge", "Debian package munge");
        QuireCommand.Result up = script("up");
        assertEquals(0, up.exitCode(), up.toString());
        return !up.stdout().contains("already up");
    }

    public static void down() throws Exception {
        script("down");
    }

    /** The states of a job that has ended (squeue(1), JOB STATE CODES); others (SIGNALING, ...) are transient. */
    private static final List<String> ENDED = List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
            "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE");

    /** Polls scontrol (sbatch --wait polls every 10 s) until the job has ended; returns what it shows then. */
    public static String awaitJobEnd(String jobId, Duration limit) throws Exception {
        Pattern statePattern = Pattern.compile("JobState=(\\w+)");
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            String state = QuireCommand.runProcess(new ProcessBuilder("scontrol", "show", "job", jobId)
                    .redirectErrorStream(true), Duration.ofSeconds(30)).stdout();
            Matcher m = statePattern.matcher(state);
            if (m.find() && ENDED.contains(m.group(1))) {
                return state;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + jobId + " did not end within " + limit);
    }

    private static QuireCommand.Result script(String command) throws Exception {
        return QuireCommand.runProcess(new ProcessBuilder("bash",
                QuireCommand.repositoryRoot().resolve("slurm/local-cluster.sh").toString(), command), Duration.ofSeconds(60));
    }
}
