package org.quire.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.SionFile;
import org.quire.launcher.QuireCommand;

/**
 * docs/first-program.md as a reader uses it ({@link DocPage}): its {@code java} block saved as
 * {@code FirstProgram.java}, each of its {@code sh} blocks but those that submit to Slurm
 * ({@code FirstProgramSlurmIT} runs them) run in order. The runs on 1 and 2 ranks, under {@code
 * quire run} (restarted from a checkpoint), plain {@code java} and {@code mpjrun}, must write the
 * same rod; the 2-rank checkpoint then refuses a 4-rank restart in one line. docs/sionlib.md's
 * example compiles with the same line and runs: written by 3 ranks, read back by 2.
 */
class FirstProgramIT {

    private static final int CELLS = 1200;

    @TempDir
    Path dir;

    @Test
    void theProgramCompilesAndRunsAsThePageSays() throws Exception {
        DocPage page = new DocPage("docs/first-program.md", dir);
        page.saveProgram("public final class FirstProgram", "FirstProgram.java");
        assertEquals(new DocPage.Followed(4, 2), page.follow(false),
                "compile, quire run, java, mpjrun; srun and sbatch left out");

        double[] twoRanksRestarted = DocPage.doubles(dir.resolve("run/heat.h5"), CELLS);
        assertArrayEquals(twoRanksRestarted, DocPage.doubles(dir.resolve("alone/heat.h5"), CELLS));
        assertArrayEquals(twoRanksRestarted, DocPage.doubles(dir.resolve("mpj/heat.h5"), CELLS));
        double heat = java.util.Arrays.stream(twoRanksRestarted).sum();
        assertTrue(Math.abs(heat - 3900) < 1e-6, "the 39 hot cells' heat, spread: " + heat);
        try (SionFile checkpoint = SionFile.open(dir.resolve("run/heat.sion"))) {
            assertEquals(2, checkpoint.taskCount());
            assertEquals(8 + 8 * CELLS / 2, checkpoint.readFully(1).length);
        }

        QuireCommand.Result four = page.bashAnyStatus("$QUIRE/quire run -n 4 -cp classes FirstProgram run 900 300");
        assertEquals(1, four.exitCode(), four.toString());
        assertTrue(four.stderr().contains("[0] FirstProgram: org.quire.format.FormatException: run/heat.sion: was"
                + " written by 2 tasks and cannot be read task-per-rank by 4 ranks"), four.toString());
        assertFalse(four.stderr().contains("\tat "), "one line, no stack trace: " + four);
    }

    @Test
    void theSionlibPageExampleCompilesAndReadsBackOnAnotherRankCount() throws Exception {
        DocPage page = new DocPage("docs/sionlib.md", dir);
        page.saveProgram("public final class SionExample", "SionExample.java");
        page.bash("javac -d classes -cp \"$QUIRE/launcher/target/lib/*\" SionExample.java");
        page.bash("$QUIRE/quire run -n 3 -cp classes SionExample write");
        List<String> read = page.bash("$QUIRE/quire run -n 2 -cp classes SionExample read").stdoutLines();
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(read.contains("[" + (rank < 1 ? 0 : 1) + "] task of rank " + rank + ": state of rank " + rank),
                    read.toString());
            assertTrue(read.contains("[0] " + rank + ": 15 bytes in 1 chunks"), read.toString());
        }
    }
}
