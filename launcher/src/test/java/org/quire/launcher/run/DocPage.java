package org.quire.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * A page of docs/ followed as a reader does, in a directory of its own: its {@code sh} blocks run
 * in order with {@code bash -e} there ({@code QUIRE} the checkout, {@code HOME} a directory in
 * it, for the {@code ~/.quire} of the Slurm blocks), each one's standard output compared with
 * the {@code text} block under it. For a block that runs {@code sbatch --wait --output=FILE},
 * {@code sbatch} must say "Submitted batch job N" and FILE must equal the {@code text} block.
 */
final class DocPage {

    static final Duration LIMIT = Duration.ofMinutes(3);
    private static final Pattern SBATCH_OUTPUT = Pattern.compile("sbatch .*--output=(\\S+)");

    /** A fenced block of the page: its info string ("java", "sh", "text") and its lines. */
    record Block(String info, String text) {
        boolean submitsToSlurm() {
            return text.contains("srun ") || text.contains("sbatch ");
        }
    }

    /** How many {@code sh} blocks {@link #follow} ran and how many (Slurm's) it left out. */
    record Followed(int run, int leftOut) {
    }

    private final Path page;
    private final Path dir;

    DocPage(String page, Path dir) {
        this.page = QuireCommand.repositoryRoot().resolve(page);
        this.dir = dir;
    }

    List<Block> blocks() throws Exception {
        List<Block> blocks = new ArrayList<>();
        String info = null;
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(page)) {
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
        assertEquals(null, info, "an unclosed block in " + page);
        return blocks;
    }

    /** Writes the one {@code java} block that holds {@code marker} to {@code file} in the directory. */
    void saveProgram(String marker, String file) throws Exception {
        List<Block> programs = blocks().stream().filter(block -> block.info().equals("java")
                && block.text().contains(marker)).toList();
        assertEquals(1, programs.size(), marker + " in " + page);
        Files.writeString(dir.resolve(file), programs.get(0).text());
    }

    /** Runs the {@code sh} blocks in order, those that submit to Slurm only if {@code withSlurm}. */
    Followed follow(boolean withSlurm) throws Exception {
        List<Block> blocks = blocks();
        int run = 0;
        int leftOut = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            if (!block.info().equals("sh")) {
                continue;
            }
            if (block.submitsToSlurm() && !withSlurm) {
                leftOut++;
                continue;
            }
            if (block.text().contains("mpjrun ")) {
                RequiredTool.require("mpjrun", "Debian package libmpj-java");
            }
            QuireCommand.Result result = bash(block.text());
            String expected = i + 1 < blocks.size() && blocks.get(i + 1).info().equals("text")
                    ? blocks.get(i + 1).text() : "";
            Matcher sbatch = SBATCH_OUTPUT.matcher(block.text());
            if (sbatch.find()) {
                assertTrue(result.stdout().matches("Submitted batch job \\d+\n"), block.text() + result);
                assertEquals(expected, Files.readString(dir.resolve(sbatch.group(1))), block.text() + result);
            } else {
                assertEquals(expected, result.stdout(), block.text() + result);
            }
            assertTrue(!result.stderr().contains("\tat "), "no stack trace: " + block.text() + result);
            run++;
        }
        return new Followed(run, leftOut);
    }

    /** {@code script} with {@code bash -e} in the directory; it must exit 0. */
    QuireCommand.Result bash(String script) throws Exception {
        QuireCommand.Result result = bashAnyStatus(script);
        assertEquals(0, result.exitCode(), script + result);
        return result;
    }

    QuireCommand.Result bashAnyStatus(String script) throws Exception {
        ProcessBuilder bash = new ProcessBuilder("bash", "-ec", script).directory(dir.toFile());
        bash.environment().put("QUIRE", QuireCommand.repositoryRoot().toString());
        bash.environment().put("HOME", Files.createDirectories(dir.resolve("home")).toString());
        return QuireCommand.runProcess(bash, LIMIT);
    }

    /** The {@code temperature} dataset of {@code cells} doubles of the HDF5 file {@code file}. */
    static double[] doubles(Path file, int cells) throws Exception {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            return hdf5.root().dataset("temperature").readDoubles(new long[] {0}, new long[] {cells});
        }
    }
}
