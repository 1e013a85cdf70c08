package org.quire.examples.catalog;

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
 * The catalog example as a user runs it: a run checkpoints a field, a second process restarts
 * from a chosen checkpoint and ends with the field of the run that never stopped, and
 * {@code quire versions} lists both lines of checkpoints, the restarted ones sharing every chunk.
 */
class CatalogCheckpointIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aRestartFromAChosenCheckpointEndsWithTheFieldOfTheUninterruptedRun() throws Exception {
        String catalog = dir.resolve("catalog.h5").toString();
        List<String> run = example(0, "run", catalog, "60", "20");
        assertEquals(List.of("checkpoint step-20 (step 20)", "checkpoint step-40 (step 40)",
                "checkpoint step-60 (step 60)"), run.subList(0, 3));
        String end = run.get(3);
        assertTrue(end.matches("step 60: field sha256 [0-9a-f]{64}"), end);

        List<String> restart = example(0, "restart", catalog, "step-20", "40", "20");
        assertTrue(restart.get(0).startsWith("restart from step-20 (step 20, "), restart.toString());
        assertEquals(List.of("checkpoint step-40.r2 (step 40)", "checkpoint step-60.r2 (step 60)", end),
                restart.subList(1, 4));
        // A second restart from the same checkpoint is run 3: its names are new.
        List<String> again = example(0, "restart", catalog, "step-20", "20", "20");
        assertEquals(List.of("checkpoint step-40.r3 (step 40)"), again.subList(1, 2));

        QuireCommand.Result ls = QuireCommand.run(LIMIT, "versions", "ls", catalog);
        assertEquals(0, ls.exitCode(), ls.toString());
        List<String> rows = ls.stdoutLines();
        assertEquals(7, rows.size(), ls.toString());
        assertTrue(rows.get(4).matches("step-40\\.r2 +step-20 +\\S+ +1 +16 +8192 +16/16 \\(100%\\)"), ls.toString());
        assertTrue(rows.get(5).matches("step-60\\.r2 +step-40\\.r2 .*"), ls.toString());
        assertTrue(rows.get(6).matches("\\*step-40\\.r3 +step-20 .*"), ls.toString());

        QuireCommand.Result diff = QuireCommand.run(LIMIT, "versions", "diff", catalog, "step-40", "step-40.r2");
        assertEquals(List.of("diff step-40 step-40.r2", "/data/t: 0 chunks changed"), diff.stdoutLines(),
                diff.toString());
    }

    @Test
    void aMissingCheckpointIsOneLineStatus1AndBadArgumentsStatus2() throws Exception {
        String catalog = dir.resolve("catalog.h5").toString();
        example(0, "run", catalog, "4", "2");
        QuireCommand.Result missing = java("restart", catalog, "~5", "2", "1");
        assertEquals(1, missing.exitCode(), missing.toString());
        assertEquals("CatalogCheckpoint: " + catalog + ": 5 versions back from the current one is before the"
                + " first version (2 steps)\n", missing.stderr());
        QuireCommand.Result usage = java("run", catalog, "4", "0");
        assertEquals(2, usage.exitCode(), usage.toString());
        assertTrue(usage.stderr().startsWith("CatalogCheckpoint: usage: "), usage.toString());
    }

    private static List<String> example(int status, String... args) throws Exception {
        QuireCommand.Result result = java(args);
        assertEquals(status, result.exitCode(), result.toString());
        assertEquals("", result.stderr(), result.toString());
        return result.stdoutLines();
    }

    private static QuireCommand.Result java(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CatalogCheckpoint.class.getName()));
        command.addAll(List.of(args));
        return QuireCommand.runProcess(new ProcessBuilder(command), LIMIT);
    }
}
