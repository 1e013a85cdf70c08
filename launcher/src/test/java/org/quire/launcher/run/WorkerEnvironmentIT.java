package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.quire.launcher.QuireCommand;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Workers started outside quire run, and several quire run jobs at once. */
class WorkerEnvironmentIT {

    @Test
    void aMalformedLaunchEnvironmentIsAClearError() throws Exception {
        Map<String, String> env = Map.of("QUIRE_RANK", "abc", "QUIRE_SIZE", "2", "QUIRE_TRANSPORT", "mpj",
                "QUIRE_COORDINATOR", "127.0.0.1:1", "QUIRE_JOB_ID", "x");
        Result result = java(env, "org.quire.runtime.check.CommunicatorContract");
        assertEquals(1, result.status(), result.output());
        assertTrue(result.output().contains("org.quire.runtime.LaunchContractException: QUIRE_RANK is 'abc'; expected a"
                + " decimal integer"), result.output());
    }

    @Test
    void plainJavaRunsTheWorkerAsAWorldOfOne() throws Exception {
        Result result = java(Map.of(), "org.quire.runtime.check.CommunicatorContract");
        assertEquals(0, result.status(), result.output());
        assertEquals("communicator contract holds: rank 0 of 1, 63 checks", result.output().strip());
    }

    @Test
    void concurrentJobsOnOneMachineDoNotInterfere() throws Exception {
        List<QuireCommand.Running> jobs = new ArrayList<>();
        for (String transport : List.of("mpj", "mpj", "hazelcast", "hazelcast")) {
            jobs.add(QuireCommand.start(Map.of(), "run", "-n", "2", "--transport", transport,
                    "org.quire.runtime.check.CommunicatorContract"));
        }
        for (QuireCommand.Running job : jobs) {
            QuireCommand.Result result = job.await(Duration.ofMinutes(3));
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals(2, result.stdoutLines().stream().filter(l -> l.contains("contract holds: rank")
                    && l.endsWith("of 2, 72 checks")).count(), result.toString());
        }
    }

    private record Result(int status, String output) {
    }

    /** Runs a worker with plain {@code java} on Quire's class path, without any launcher. */
    private static Result java(Map<String, String> env, String mainClass) throws Exception {
        Path lib = QuireCommand.repositoryRoot().resolve("launcher/target/lib");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", lib + "/*:/usr/share/java/mpj.jar", mainClass).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("QUIRE_") || name.startsWith("SLURM_"));
        builder.environment().putAll(env);
        QuireCommand.Result result = QuireCommand.runProcess(builder, Duration.ofSeconds(60));
        return new Result(result.exitCode(), result.stdout());
    }
}
