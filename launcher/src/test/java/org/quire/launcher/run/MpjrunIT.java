package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same worker class runs unchanged under MPJ Express's own {@code mpjrun} (multicore mode:
 * the ranks are threads of one JVM, each with its own class loader).
 */
class MpjrunIT {

    @Test
    void theContractWorkerRunsUnderMpjrun() throws Exception {
        Path mpjrun = RequiredTool.require("mpjrun", "Debian package libmpj-java");
        String classPath = QuireCommand.moduleJar("runtime") + ":" + QuireCommand.moduleJar("format");
        QuireCommand.Result mpj = QuireCommand.runProcess(new ProcessBuilder(mpjrun.toString(), "-np", "3", "-cp",
                classPath, "org.quire.runtime.check.CommunicatorContract").redirectErrorStream(true),
                Duration.ofMinutes(2));
        String output = mpj.stdout();
        assertEquals(0, mpj.exitCode(), output);
        List<String> lines = output.lines().toList();
        assertTrue(lines.contains("MPJ Express (0.44) is started in the multicore configuration"), output);
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(lines.contains("communicator contract holds: rank " + rank + " of 3, 81 checks"), output);
        }
    }

    /**
     * One SIGTERM to the JVM that holds every rank reaches all of them as a stop request: each
     * rank's class loader installed its own handler, and each passes the signal on.
     */
    @Test
    void oneSignalToTheMulticoreJvmIsAStopRequestForEveryRank(@TempDir Path markers) throws Exception {
        Path mpjrun = RequiredTool.require("mpjrun", "Debian package libmpj-java");
        String classPath = QuireCommand.moduleJar("runtime") + ":" + QuireCommand.moduleJar("format") + ":"
                + QuireCommand.testWorkers();
        QuireCommand.Running mpj = QuireCommand.startProcess(new ProcessBuilder(mpjrun.toString(), "-np", "3", "-cp",
                classPath, "org.quire.launcher.workers.StopsOnRequest", markers.toString()).redirectErrorStream(true));
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (mpj.stdoutSoFar().lines().filter(l -> l.startsWith("pid ")).count() < 3 && mpj.process().isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        String ranksJvm = mpj.stdoutSoFar().lines().filter(l -> l.startsWith("pid ")).findFirst()
                .orElseThrow(() -> new AssertionError("no rank started: " + mpj.stdoutSoFar())).substring(4);
        new ProcessBuilder("kill", "-TERM", ranksJvm).start().waitFor();
        QuireCommand.Result result = mpj.await(Duration.ofMinutes(2));
        assertEquals(0, result.exitCode(), result.stdout());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(Files.exists(markers.resolve("stopped-" + rank)), "rank " + rank + ": " + result.stdout());
            assertTrue(Files.exists(markers.resolve("hook-" + rank)), "rank " + rank + "'s own stop hook ran");
        }
    }
}
