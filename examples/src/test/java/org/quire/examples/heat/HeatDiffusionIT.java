package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.sion.SionFile;
import org.quire.launcher.QuireCommand;

/**
 * {@link HeatDiffusion} as real jobs under {@code quire run}: a run on 4 ranks with checkpoints,
 * diagnostics and the in-situ reader; a run whose rank is killed with SIGKILL, restarted on 3
 * ranks and verified bitwise; a run stopped by SIGTERM that writes a final checkpoint. Small grids
 * (256 x 256) keep each job short.
 */
class HeatDiffusionIT {

    private static final Duration JOB_LIMIT = Duration.ofMinutes(2);
    private static final String GRID = "256";
    private static final String CELLS = "65536";
    private static final Pattern PID = Pattern.compile("^quire run: rank (\\d+) is process (\\d+)$",
            Pattern.MULTILINE);
    private static final Pattern RESTART = Pattern.compile("^\\[0] restart: from step (\\d+) of ", Pattern.MULTILINE);
    private static final Pattern STOPPED = Pattern.compile("^\\[0] heat: stopped on request at step (\\d+) ",
            Pattern.MULTILINE);

    @TempDir
    Path directory;

    private static List<String> heat(int ranks, String... arguments) {
        List<String> command = new ArrayList<>(List.of("run", "-n", Integer.toString(ranks), "--show-pids", "-cp",
                QuireCommand.repositoryRoot().resolve("examples/target/quire-examples.jar").toString(),
                "org.quire.examples.heat.HeatDiffusion", "--grid", GRID));
        command.addAll(List.of(arguments));
        return command;
    }

    private Path checkpoints() {
        return directory.resolve("checkpoints");
    }

    private Path diagnostics() {
        return directory.resolve("heat.h5");
    }

    @Test
    void fourRanksCheckpointWhileTheLastRankFollowsTheDiagnosticsInSitu() throws Exception {
        QuireCommand.Result run = QuireCommand.run(JOB_LIMIT, heat(4, "--steps", "130", "--checkpoint-every", "40",
                "--dir", checkpoints().toString(), "--diagnostics", diagnostics().toString(), "--in-situ",
                "--verify").toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.toString());
        for (int step : new int[] {40, 80, 120, 130}) { // 130: the last step is checkpointed too
            assertTrue(run.stdout().contains("[0] checkpoint step " + step + ": "), run.toString());
            try (SionFile checkpoint = SionFile.open(checkpoints().resolve("heat-" + step + ".sion"))) {
                assertEquals(4, checkpoint.taskCount());
                assertEquals(Optional.empty(), HeatCheckpoint.problem(checkpoint, step));
            }
        }
        assertTrue(run.stdout().contains("[0] verify: final grid bitwise identical to an uninterrupted run ("
                + CELLS + " cells)\n"), run.toString());
        assertTrue(run.stdout().lines().anyMatch(line -> line.startsWith("[3] in-situ reader: followed "
                + diagnostics() + " while rank 0 wrote it: 130 rows (steps 1..130) in ")
                && line.contains("; energy non-increasing: ")), run.toString());
        assertDiagnosticsOfSteps(130);
    }

    @Test
    void aRunWhoseRankIsKilledRestartsOnThreeRanksBitwiseIdenticalToAnUninterruptedRun() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), heat(4, "--steps", "300", "--checkpoint-every",
                "50", "--dir", checkpoints().toString(), "--diagnostics", diagnostics().toString())
                .toArray(String[]::new));
        long[] pids = awaitPids(job, 4, "[0] checkpoint step 100: ");
        awaitDiagnosticsRows(120); // rows past the checkpoint, which the restart must drop
        ProcessHandle.of(pids[2]).orElseThrow().destroyForcibly();
        QuireCommand.Result killed = job.await(JOB_LIMIT);
        assertEquals(128 + 9, killed.exitCode(), "the job ends with the SIGKILLed rank's status\n" + killed);

        QuireCommand.Result restart = QuireCommand.run(JOB_LIMIT, heat(3, "--steps", "300", "--checkpoint-every",
                "50", "--dir", checkpoints().toString(), "--diagnostics", diagnostics().toString(), "--restart",
                "--in-situ", "--verify").toArray(String[]::new));
        assertEquals(0, restart.exitCode(), killed + "\n" + restart);
        Matcher from = RESTART.matcher(restart.stdout());
        assertTrue(from.find(), restart.toString());
        assertTrue(Long.parseLong(from.group(1)) >= 100, "restarted from the latest checkpoint\n" + restart);
        assertTrue(restart.stdout().contains("on 3 ranks"), restart.toString());
        // Rank 0 sat in a collective with the dead rank until the launcher killed it, its file open.
        assertTrue(restart.stdout().contains("[0] diagnostics: " + diagnostics() + " was left open by the killed"
                + " job's writer; recovered it"), restart.toString());
        assertTrue(restart.stdout().contains("[0] verify: final grid bitwise identical to an uninterrupted run ("
                + CELLS + " cells)\n"), killed + "\n" + restart);
        // The rows the killed run wrote past the checkpoint are gone before the reader opens the file.
        assertTrue(restart.stdout().lines().anyMatch(line -> line.startsWith("[2] in-situ reader: followed "
                + diagnostics() + " while rank 0 wrote it: 300 rows (steps 1..300) in ")
                && line.contains("; energy non-increasing: ")), restart.toString());
        assertDiagnosticsOfSteps(300);
    }

    @Test
    void aStopRequestWritesAFinalCheckpointAndEveryRankExitsCleanly() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), heat(2, "--steps", "1000000", "--checkpoint-every",
                "1000", "--dir", checkpoints().toString()).toArray(String[]::new));
        awaitPids(job, 2, "[0] heat: 256 x 256 grid on 2 ranks");
        new ProcessBuilder("kill", "-TERM", Long.toString(job.process().pid())).start().waitFor();
        QuireCommand.Result stopped = job.await(JOB_LIMIT);
        assertEquals(128 + 15, stopped.exitCode(), "quire run exits 128 + SIGTERM\n" + stopped);
        Matcher at = STOPPED.matcher(stopped.stdout());
        assertTrue(at.find(), stopped.toString());
        String step = at.group(1);
        assertTrue(stopped.stdout().contains("[0] checkpoint step " + step + ": "), stopped.toString());
        assertTrue(stopped.stdout().contains(", last checkpoint " + checkpoints().resolve("heat-" + step + ".sion")),
                stopped.toString());

        QuireCommand.Result resumed = QuireCommand.run(JOB_LIMIT, heat(1, "--steps", step, "--dir",
                checkpoints().toString(), "--restart", "--verify").toArray(String[]::new));
        assertEquals(0, resumed.exitCode(), resumed.toString());
        assertTrue(resumed.stdout().contains("[0] restart: from step " + step + " of "), resumed.toString());
        assertTrue(resumed.stdout().contains("bitwise identical"), resumed.toString());
    }

    @Test
    void aStopRequestToOneRankStopsEveryRankAfterTheSameStep() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), heat(3, "--steps", "1000000", "--checkpoint-every",
                "0", "--dir", checkpoints().toString()).toArray(String[]::new));
        long[] pids = awaitPids(job, 3, "[0] heat: 256 x 256 grid on 3 ranks");
        // As srun --signal does: the signal reaches a rank, not the launcher; rank 0 learns it from the others.
        new ProcessBuilder("kill", "-USR1", Long.toString(pids[1])).start().waitFor();
        QuireCommand.Result stopped = job.await(JOB_LIMIT);
        assertEquals(0, stopped.exitCode(), stopped.toString());
        assertTrue(stopped.stderr().contains("[1] quire: received SIGUSR1, stop requested"), stopped.toString());
        Matcher at = STOPPED.matcher(stopped.stdout());
        assertTrue(at.find(), stopped.toString());
        long step = Long.parseLong(at.group(1));
        try (SionFile checkpoint = SionFile.open(checkpoints().resolve("heat-" + step + ".sion"))) {
            assertEquals(3, checkpoint.taskCount());
            assertEquals(Optional.empty(), HeatCheckpoint.problem(checkpoint, step), "every rank wrote step " + step);
        }
    }

    @Test
    void anExistingDiagnosticsFileARestartPastStepsAndAFileThatIsNotHdf5AreRefusedInOneLine() throws Exception {
        QuireCommand.Result first = QuireCommand.run(JOB_LIMIT, heat(1, "--steps", "10", "--checkpoint-every", "5",
                "--dir", checkpoints().toString(), "--diagnostics", diagnostics().toString()).toArray(String[]::new));
        assertEquals(0, first.exitCode(), first.toString());

        QuireCommand.Result again = QuireCommand.run(JOB_LIMIT, heat(1, "--steps", "10", "--dir",
                directory.resolve("other").toString(), "--diagnostics", diagnostics().toString())
                .toArray(String[]::new));
        assertEquals(2, again.exitCode(), again.toString());
        assertTrue(again.stderr().contains("[0] HeatDiffusion: --diagnostics " + diagnostics() + " exists (an earlier"
                + " run's?): continue that run with --restart, or remove the file or give another\n"), again.toString());

        QuireCommand.Result behind = QuireCommand.run(JOB_LIMIT, heat(1, "--steps", "8", "--dir",
                checkpoints().toString(), "--restart").toArray(String[]::new));
        assertEquals(2, behind.exitCode(), behind.toString());
        assertTrue(behind.stderr().contains("[0] HeatDiffusion: the checkpoint's step 10 (" + checkpoints()
                .resolve("heat-10.sion") + ") is past --steps 8; give --steps 10 or more to continue the run\n"),
                behind.toString());

        Path text = directory.resolve("text.h5");
        Files.writeString(text, "not HDF5\n");
        QuireCommand.Result restart = QuireCommand.run(JOB_LIMIT, heat(1, "--steps", "12", "--dir",
                checkpoints().toString(), "--restart", "--diagnostics", text.toString()).toArray(String[]::new));
        assertEquals(1, restart.exitCode(), restart.toString());
        assertTrue(restart.stderr().contains("[0] HeatDiffusion: " + text + ": not an HDF5 file"), restart.toString());
        assertTrue(!restart.stderr().contains("Exception") && !restart.stderr().contains("\tat "), restart.toString());
    }

    /** The diagnostics hold one row per step 1..steps, in order, the energy never increasing. */
    private void assertDiagnosticsOfSteps(int steps) throws Exception {
        try (Hdf5File file = Hdf5File.open(diagnostics())) {
            Dataset rows = file.root().dataset(HeatDiagnostics.DATASET);
            assertEquals(steps, rows.shape()[0]);
            ByteBuffer read = rows.read(new long[] {0}, new long[] {steps});
            double energy = Double.POSITIVE_INFINITY;
            for (int i = 0; i < steps; i++) {
                HeatDiagnostics.Row row = HeatDiagnostics.Row.decode(read, i);
                assertEquals(i + 1, row.step(), "row " + i);
                assertTrue(row.energy() <= energy * (1 + InSituReader.ROUNDING), "energy at row " + i);
                energy = row.energy();
            }
        }
    }

    /** Waits until an SWMR reader sees at least {@code rows} diagnostics rows. */
    private void awaitDiagnosticsRows(long rows) throws Exception {
        long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Hdf5File file = Hdf5File.openSwmr(diagnostics())) {
                if (file.root().dataset(HeatDiagnostics.DATASET).shape()[0] >= rows) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("fewer than " + rows + " diagnostics rows within " + JOB_LIMIT);
    }

    /** Waits until every rank's pid was shown and stdout holds {@code line}. */
    private static long[] awaitPids(QuireCommand.Running job, int ranks, String line) throws Exception {
        long deadline = System.nanoTime() + JOB_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            long[] pids = new long[ranks];
            int found = 0;
            Matcher pid = PID.matcher(job.stderrSoFar());
            while (pid.find()) {
                pids[Integer.parseInt(pid.group(1))] = Long.parseLong(pid.group(2));
                found++;
            }
            if (found == ranks && job.stdoutSoFar().contains(line)) {
                return pids;
            }
            if (!job.process().isAlive()) {
                fail("the job ended before \"" + line + "\":\n" + job.await(JOB_LIMIT));
            }
            Thread.sleep(20);
        }
        job.process().descendants().forEach(ProcessHandle::destroyForcibly);
        job.process().destroyForcibly();
        throw new AssertionError("no \"" + line + "\" within " + JOB_LIMIT + ":\n" + job.stdoutSoFar());
    }
}
