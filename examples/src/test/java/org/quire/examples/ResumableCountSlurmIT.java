package org.quire.examples;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.slurm.LocalSlurmCluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkpoint-before-the-time-limit pattern under real Slurm: {@link ResumableCount} submitted
 * with {@code slurm/quire-job.sbatch} and a time limit shorter than its work gets Slurm's warning
 * ({@code --signal=USR1@60}), checkpoints and ends cleanly; the script submits itself again
 * ({@code sbatch --dependency=afterany}) and the chain resumes until the work is done, with the
 * total an uninterrupted run gives.
 */
class ResumableCountSlurmIT {

    private static boolean startedHere;

    @BeforeAll
    static void bringUpTheCluster() throws Exception {
        startedHere = LocalSlurmCluster.up();
    }

    @AfterAll
    static void bringDownWhatWeStarted() throws Exception {
        if (startedHere) {
            LocalSlurmCluster.down();
        }
    }

    @Test
    void aJobStoppedBeforeItsTimeLimitResumesInTheJobItSubmits(@TempDir Path dir) throws Exception {
        Path root = QuireCommand.repositoryRoot();
        Path output = dir.resolve("job.out");
        Path finished = dir.resolve("finished");
        // 900 steps of 100 ms: more than the 2-minute limit leaves before the warning (60 s before it).
        ProcessBuilder sbatch = new ProcessBuilder("sbatch", "--parsable", "--ntasks=3", "--time=2",
                "--output=" + output, root.resolve("slurm/quire-job.sbatch").toString(),
                "org.quire.examples.ResumableCount", dir.toString(), "900", "100").redirectErrorStream(true);
        sbatch.environment().putAll(Map.of("QUIRE_HOME", root.toString(),
                "QUIRE_RESUBMIT_UNLESS", finished.toString(), "QUIRE_SECRET_DIR", dir.resolve("secrets").toString()));
        QuireCommand.Result submit = QuireCommand.runProcess(sbatch, Duration.ofSeconds(60));
        assertEquals(0, submit.exitCode(), submit.toString());
        String firstJob = submit.stdout().strip();
        String first = LocalSlurmCluster.awaitJobEnd(firstJob, Duration.ofMinutes(3));
        assertTrue(first.contains("JobState=COMPLETED") && first.contains("ExitCode=0:0"), first + log(output));
        Matcher next = Pattern.compile("submitted job (\\d+) \\(resubmission 1\\) to resume after job " + firstJob)
                .matcher(Files.readString(output));
        assertTrue(next.find(), log(output));
        String last = next.group(1);
        for (int resubmission = 2; ; resubmission++) {
            String state = LocalSlurmCluster.awaitJobEnd(last, Duration.ofMinutes(3));
            assertTrue(state.contains("JobState=COMPLETED") && state.contains("ExitCode=0:0"), state + log(output));
            Matcher again = Pattern.compile("submitted job (\\d+) \\(resubmission " + resubmission + "\\)")
                    .matcher(Files.readString(output));
            if (!again.find()) {
                break;
            }
            last = again.group(1);
        }
        List<String> lines = Files.readAllLines(output);
        assertTrue(lines.stream().anyMatch(l -> l.matches("0: stopped at step \\d+: checkpoint .*")), log(output));
        assertTrue(lines.stream().anyMatch(l -> l.matches("0: resuming at step \\d+")), log(output));
        assertTrue(lines.contains("0: finished at step 900: total 5400 (expected 5400)"), log(output));
        assertEquals("5400\n", Files.readString(finished));
    }

    private static String log(Path output) throws Exception {
        return "\n--- job output\n" + (Files.exists(output) ? Files.readString(output) : "(none)");
    }
}
