package org.quire.launcher.slurm;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The real Slurm cluster of {@code slurm/local-cluster.sh} (two nodes on this machine) for the
 * tests that submit jobs. A test class names it with {@code @ExtendWith(LocalSlurmCluster.class)}:
 * the cluster is brought up before the class's tests unless it runs, and brought down after them
 * only if it was brought up for them (so a cluster someone started stays up).
 */
public final class LocalSlurmCluster implements BeforeAllCallback, AfterAllCallback {

    /** Where a test class keeps whether it brought the cluster up. */
    private static final ExtensionContext.Namespace STARTED =
            ExtensionContext.Namespace.create(LocalSlurmCluster.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        RequiredTool.require("srun", "Debian package slurm-wlm");
        RequiredTool.require("munge", "Debian package munge");
        QuireCommand.Result up = script("up");
        assertEquals(0, up.exitCode(), up.toString());
        context.getStore(STARTED).put(context.getRequiredTestClass(),
                !up.stdout().contains("already up"));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (Boolean.TRUE.equals(context.getStore(STARTED).get(context.getRequiredTestClass(),
                Boolean.class))) {
            script("down");
        }
    }

    /**
     * Submits a batch job with {@code sbatch --parsable ARGUMENTS}, {@code environment} added to
     * this JVM's, and returns its job id.
     */
    public static String submit(Map<String, String> environment, String... arguments)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable"));
        command.addAll(List.of(arguments));
        ProcessBuilder sbatch = new ProcessBuilder(command).redirectErrorStream(true);
        sbatch.environment().putAll(environment);
        QuireCommand.Result submitted = QuireCommand.runProcess(sbatch, Duration.ofSeconds(60));
        assertEquals(0, submitted.exitCode(), submitted.toString());
        return submitted.stdout().strip();
    }

    /** A batch job's output file, to append to a failure's message. */
    public static String jobOutput(Path output) throws Exception {
        return "\n--- job output\n" + (Files.exists(output) ? Files.readString(output) : "(none)");
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

    /**
     * Waits for the job to end (as {@link #awaitJobEnd}) and checks that it ended COMPLETED with
     * exit code 0; returns what scontrol shows. A failure shows the job's {@code output}.
     */
    public static String awaitJobCompleted(String jobId, Duration limit, Path output)
            throws Exception {
        String state = awaitJobEnd(jobId, limit);
        if (!state.contains("JobState=COMPLETED") || !state.contains("ExitCode=0:0")) {
            throw new AssertionError("job " + jobId + " did not complete with exit code 0:\n"
                    + state + jobOutput(output));
        }
        return state;
    }

    private static QuireCommand.Result script(String command) throws Exception {
        return QuireCommand.runProcess(new ProcessBuilder("bash",
                QuireCommand.repositoryRoot().resolve("slurm/local-cluster.sh").toString(), command), Duration.ofSeconds(60));
    }
}
