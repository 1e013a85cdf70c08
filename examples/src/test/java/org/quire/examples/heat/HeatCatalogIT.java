package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;

/**
 * {@link HeatDiffusion} with {@code --catalog} as real jobs under {@code quire run}: a run on 3
 * ranks commits its SION checkpoints to a catalog, {@code quire versions} lists, shows and diffs
 * them, and runs on 2 ranks restart from a name (twice from the same checkpoint), from
 * {@code latest} and from a time, each ending bitwise where an uninterrupted run does
 * ({@code --verify}).
 */
class HeatCatalogIT {

    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final String IDENTICAL = "[0] verify: final grid bitwise identical to an uninterrupted run (4096 cells)";

    @TempDir
    Path dir;

    private List<String> heat(int ranks, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(ranks), "-cp",
                QuireCommand.repositoryRoot().resolve("examples/target/quire-examples.jar").toString(),
                "org.quire.examples.heat.HeatDiffusion", "--grid", "64", "--checkpoint-every", "20",
                "--dir", dir.resolve("ckpt").toString(), "--catalog", catalog(), "--verify"));
        command.addAll(List.of(arguments));
        QuireCommand.Result run = QuireCommand.run(LIMIT, command.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.stdoutLines().contains(IDENTICAL), run.toString());
        return run.stdoutLines();
    }

    private String catalog() {
        return dir.resolve("catalog.h5").toString();
    }

    private static List<String> versions(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("versions"));
        command.addAll(List.of(arguments));
        QuireCommand.Result result = QuireCommand.run(LIMIT, command.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.toString());
        return result.stdoutLines();
    }

    private static List<String> committed(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("[0] catalog: committed ")).map(line -> line.substring(23))
                .toList();
    }

    private String restartLine(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("[0] restart: ")).findFirst().orElseThrow();
    }

    @Test
    void checkpointsOfThreeRanksRestartOnTwoFromANameTwiceLatestAndATime() throws Exception {
        Path ckpt = dir.resolve("ckpt");
        assertEquals(List.of("step-20", "step-40", "step-60"), committed(heat(3, "--steps", "60")));

        List<String> ls = versions("ls", catalog());
        assertEquals(4, ls.size(), ls.toString());
        assertTrue(ls.get(3).matches("\\*step-60 +step-40 .*"), ls.toString());
        List<String> show = versions("show", catalog(), "step-40");
        assertTrue(show.contains("    @step: int64 LE = 40"), show.toString());
        assertTrue(show.contains("    @ranks: int64 LE = 3"), show.toString());
        assertTrue(show.contains("    @sion_container: string[variable] nullterm utf8 = \"ckpt/heat-40.sion\""),
                show.toString());
        assertTrue(show.contains("    @run: int64 LE = 1"), show.toString());
        assertEquals(List.of("diff step-20 step-40"), versions("diff", catalog(), "step-20", "step-40"));
        String step40Time = show.get(2).substring("  timestamp: ".length());

        List<String> byName = heat(2, "--steps", "60", "--restart", "step-20");
        assertEquals("[0] restart: from step 20 of " + ckpt.resolve("heat-20.sion") + " (checkpoint step-20 of "
                + catalog() + ") on 2 ranks", restartLine(byName));
        assertEquals(List.of("step-40.r2", "step-60.r2"), committed(byName));
        List<String> again = heat(2, "--steps", "60", "--restart", "step-20");
        assertEquals(List.of("step-40.r3", "step-60.r3"), committed(again));
        String written = "[0] checkpoint step 40: " + ckpt.resolve("run-3/heat-40.sion") + ", ";
        assertTrue(again.stream().anyMatch(line -> line.startsWith(written)), again.toString());

        List<String> latest = heat(2, "--steps", "80", "--restart");
        assertTrue(restartLine(latest).contains("(checkpoint step-60.r3 of "), latest.toString());
        assertEquals(List.of("step-80.r4"), committed(latest));

        // The original step-40's container is intact (the restart checks its digest) after three restarts.
        List<String> byTime = heat(2, "--steps", "60", "--restart", "@" + step40Time);
        assertTrue(restartLine(byTime).contains("(checkpoint step-40 of "), byTime.toString());
        assertEquals(List.of("step-60.r5"), committed(byTime));

        List<String> all = versions("ls", catalog());
        assertEquals(10, all.size(), all.toString());
        assertTrue(all.get(4).matches("step-40\\.r2 +step-20 .*"), all.toString());
        assertTrue(all.get(6).matches("step-40\\.r3 +step-20 .*"), all.toString());
        assertTrue(all.get(9).matches("\\*step-60\\.r5 +step-40 .*"), all.toString());
        List<String> r2 = versions("show", catalog(), "step-40.r2");
        assertTrue(r2.contains("    @ranks: int64 LE = 2"), r2.toString());
        assertTrue(r2.contains("    @sion_container: string[variable] nullterm utf8 = \"ckpt/run-2/heat-40.sion\""),
                r2.toString());
    }
}
