package org.quire.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
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
import static org.quire.launcher.slurm.LocalSlurmCluster.jobOutput;

/**
 * The checkpoint-before-the-time-limit pattern under real Slurm: {@link ResumableCount} submitted
 * with {@code slurm/quire-job.sbatch} and a time limit shorter than its work gets Slurm's warning
 * ({@code --signal=USR1@60}), checkpoints and ends cleanly; the script submits itself again
 * ({@code sbatch --dependency=afterany}) and the chain resumes until the work is done, with the
 * total an uninterrupted run gives.
 */
@ExtendWith(LocalSlurmCluster.class)
class ResumableCountSlurmIT {

    @Test
    void aJobStoppedBeforeItsTimeLimitResumesInTheJobItSubmits(@TempDir Path dir) throws Exception {
        Path root = QuireCommand.repositoryRoot();
        Path output = dir.resolve("job.out");
        Path finished = dir.resolve("finished");
        // 900 steps of 100 ms: more than the 2-minute limit leaves before the warning (60 s before it).
        String firstJob = LocalSlurmCluster.submit(Map.of("QUIRE_HOME", root.toString(),
                "QUIRE_RESUBMIT_UNLESS", finished.toString(), "QUIRE_SECRET_DIR", dir.resolve("secrets").toString()),
                "--ntasks=3", "--time=2", "--output=" + output, root.resolve("slurm/quire-job.sbatch").toString(),
                "org.quire.examples.ResumableCount", dir.toString(), "900", "100");
        LocalSlurmCluster.awaitJobCompleted(firstJob, Duration.ofMinutes(3), output);
        Matcher next = Pattern.compile("submitted job (\\d+) \\(resubmission 1\\) to resume after job " + firstJob)
                .matcher(Files.readString(output));
        assertTrue(next.find(), jobOutput(output));
        String last = next.group(1);
        for (int resubmission = 2; ; resubmission++) {
            LocalSlurmCluster.awaitJobCompleted(last, Duration.ofMinutes(3), output);
            Matcher again = Pattern.compile("submitted job (\\d+) \\(resubmission " + resubmission + "\\)")
                    .matcher(Files.readString(output));
            if (!again.find()) {
                break;
            }
            last = again.group(1);
        }
        List<String> lines = Files.readAllLines(output);
        assertTrue(lines.stream().anyMatch(l -> l.matches("0: stopped at step \\d+: checkpoint .*")), jobOutput(output));
        assertTrue(lines.stream().anyMatch(l -> l.matches("0: resuming at step \\d+")), jobOutput(output));
        assertTrue(lines.contains("0: finished at step 900: total 5400 (expected 5400)"), jobOutput(output));
        assertEquals("5400\n", Files.readString(finished));
    }
}
