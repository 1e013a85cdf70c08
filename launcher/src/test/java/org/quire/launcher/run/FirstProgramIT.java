package org.quire.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.sion.SionFile;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * docs/first-program.md as a reader uses it: its {@code java} block saved as {@code
 * FirstProgram.java}, each of its {@code sh} blocks run with {@code bash -e} in that directory
 * ({@code QUIRE} the checkout) and its standard output compared with the {@code text} block
 * under it. The blocks that submit to Slurm ({@code srun}, {@code sbatch}) are only required to
 * be there. The runs on 1 and 2 ranks, under {@code quire run} (restarted from a checkpoint),
 * plain {@code java} and {@code mpjrun}, must write the same rod. docs/sionlib.md's example
 * compiles with the same line and runs: written by 3 ranks, read back by 2.
 */
class FirstProgramIT {

    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final int CELLS = 1200;

    @TempDir
    Path dir;

    /** A fenced block of the page: its info string ("java", "sh", "text") and its lines. */
    private record Block(String info, String text) {
    }

    private static List<Block> blocks(Path markdown) throws Exception {
        List<Block> blocks = new ArrayList<>();
        String info = null;
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(markdown)) {
            if (line.startsWith("```")) {
                if (info == null) {
                    info = line.substring(3).strip();
                    text.setLength(0);
                } else {
                    blocks.add(new Block(info, text.toString()));
                    info = null;
                }
            } else if (info != null) {
                text.append(line).append('\n');
            }
        }
        assertEquals(null, info, "an unclosed block in " + markdown);
        return blocks;
    }

    /** The first {@code java} block of {@code markdown} that holds {@code marker}. */
    private static String program(Path markdown, String marker) throws Exception {
        List<Block> programs = blocks(markdown).stream().filter(block -> block.info().equals("java")
                && block.text().contains(marker)).toList();
        assertEquals(1, programs.size(), marker + " in " + markdown);
        return programs.get(0).text();
    }

    private QuireCommand.Result bash(String script) throws Exception {
        ProcessBuilder bash = new ProcessBuilder("bash", "-ec", script).directory(dir.toFile());
        bash.environment().put("QUIRE", QuireCommand.repositoryRoot().toString());
        QuireCommand.Result result = QuireCommand.runProcess(bash, LIMIT);
        assertEquals(0, result.exitCode(), script + result);
        return result;
    }

    private static double[] rod(Path file) throws Exception {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            return hdf5.root().dataset("temperature").readDoubles(new long[] {0}, new long[] {CELLS});
        }
    }

    @Test
    void theProgramCompilesAndRunsAsThePageSays() throws Exception {
        Path root = QuireCommand.repositoryRoot();
        List<Block> blocks = blocks(root.resolve("docs/first-program.md"));
        Files.writeString(dir.resolve("FirstProgram.java"), program(root.resolve("docs/first-program.md"),
                "public final class FirstProgram"));

        int run = 0;
        int slurm = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            if (!block.info().equals("sh")) {
                continue;
            }
            if (block.text().contains("srun ") || block.text().contains("sbatch ")) {
                slurm++;
                continue;
            }
            if (block.text().contains("mpjrun ")) {
                RequiredTool.require("mpjrun", "Debian package libmpj-java");
            }
            QuireCommand.Result result = bash(block.text());
            String expected = i + 1 < blocks.size() && blocks.get(i + 1).info().equals("text")
                    ? blocks.get(i + 1).text() : "";
            assertEquals(expected, result.stdout(), block.text() + result);
            run++;
        }
        assertEquals(4, run, "compile, quire run, java, mpjrun");
        assertEquals(2, slurm, "srun and sbatch");

        double[] twoRanksRestarted = rod(dir.resolve("run/heat.h5"));
        assertArrayEquals(twoRanksRestarted, rod(dir.resolve("alone/heat.h5")));
        assertArrayEquals(twoRanksRestarted, rod(dir.resolve("mpj/heat.h5")));
        double heat = java.util.Arrays.stream(twoRanksRestarted).sum();
        assertTrue(Math.abs(heat - 3900) < 1e-6, "the 39 hot cells' heat, spread: " + heat);
        try (SionFile checkpoint = SionFile.open(dir.resolve("run/heat.sion"))) {
            assertEquals(2, checkpoint.taskCount());
            assertEquals(8 + 8 * CELLS / 2, checkpoint.readFully(1).length);
        }
    }

    @Test
    void theSionlibPageExampleCompilesAndReadsBackOnAnotherRankCount() throws Exception {
        Path root = QuireCommand.repositoryRoot();
        Files.writeString(dir.resolve("SionExample.java"), program(root.resolve("docs/sionlib.md"),
                "public final class SionExample"));
        bash("javac -d classes -cp \"$QUIRE/launcher/target/lib/*\" SionExample.java");
        bash("$QUIRE/quire run -n 3 -cp classes SionExample write");
        List<String> read = bash("$QUIRE/quire run -n 2 -cp classes SionExample read").stdoutLines();
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(read.contains("[" + (rank < 1 ? 0 : 1) + "] task of rank " + rank + ": state of rank " + rank),
                    read.toString());
            assertTrue(read.contains("[0] " + rank + ": 15 bytes in 1 chunks"), read.toString());
        }
    }
}
