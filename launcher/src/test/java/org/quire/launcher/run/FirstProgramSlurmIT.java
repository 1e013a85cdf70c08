package org.quire.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.SionFile;
import org.quire.launcher.slurm.LocalSlurmCluster;

/**
 * docs/first-program.md followed in order, its {@code srun} and {@code sbatch} blocks included,
 * on the two nodes of {@code slurm/local-cluster.sh} ({@link DocPage}): each block as written
 * must succeed with the output under it, and the 4-rank runs write the rod of the 2-rank one.
 */
@ExtendWith(LocalSlurmCluster.class)
class FirstProgramSlurmIT {

    private static final int CELLS = 1200;

    @TempDir
    Path dir;

    @Test
    void everyBlockOfThePageRunsAsWrittenSlurmsIncluded() throws Exception {
        DocPage page = new DocPage("docs/first-program.md", dir);
        page.saveProgram("public final class FirstProgram", "FirstProgram.java");
        assertEquals(new DocPage.Followed(6, 0), page.follow(true),
                "compile, quire run, java, mpjrun, srun, sbatch");

        double[] twoRanks = DocPage.doubles(dir.resolve("run/heat.h5"), CELLS);
        for (String fourRanks : new String[] {"slurm", "batch"}) {
            assertArrayEquals(twoRanks, DocPage.doubles(dir.resolve(fourRanks + "/heat.h5"), CELLS), fourRanks);
            try (SionFile checkpoint = SionFile.open(dir.resolve(fourRanks + "/heat.sion"))) {
                assertEquals(4, checkpoint.taskCount(), fourRanks);
            }
        }
    }
}
