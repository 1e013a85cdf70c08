package org.quire.launcher.slurm;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.runtime.JobSecret;
import org.quire.runtime.hazelcast.HazelcastSettings;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ranks of an {@code srun} step, simulated without Slurm: plain JVMs with the variables srun
 * gives its tasks, so rank 0 serves the coordinator on the port derived from the (public) job
 * id. An outsider who derives the port and the cluster name the way Quire used to is kept out,
 * and the step completes.
 */
class SimulatedSlurmStepIT {

    private static final Duration HANG = Duration.ofSeconds(120);
    private static final int RANKS = 3;

    @TempDir
    Path directory;

    @Test
    void anOutsiderWhoDerivesTheHazelcastPortAndOldClusterNameCannotJoin() throws Exception {
        int jobId = ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        List<QuireCommand.Running> ranks = startStep("hazelcast", jobId);
        try {
            awaitJoined(ranks.get(0));
            ClientConfig client = new ClientConfig();
            client.setClusterName("quire-slurm-" + jobId + ".0");
            client.getNetworkConfig().addAddress("127.0.0.1:" + derivedPort(jobId));
            client.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(3000);
            HazelcastSettings.silenceLogging();
            assertThrows(IllegalStateException.class, () -> HazelcastClient.newHazelcastClient(client));
            assertStepCompleted(ranks);
        } finally {
            ranks.forEach(r -> r.process().destroyForcibly());
        }
    }

    @Test
    void forgedRegistrationsAtRankZerosRendezvousAreDroppedAndTheStepForms() throws Exception {
        int jobId = ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        List<QuireCommand.Running> ranks = startStep("mpj", jobId);
        List<Socket> strangers = new ArrayList<>();
        try {
            Socket forged = awaitConnect(derivedPort(jobId));
            strangers.add(forged);
            forged.getInputStream().readNBytes(24); // the challenge
            forged.getOutputStream().write(ByteBuffer.allocate(44).putInt(0).putInt(6666).putInt(6667).array());
            Socket idle = awaitConnect(derivedPort(jobId));
            strangers.add(idle);
            List<QuireCommand.Result> results = assertStepCompleted(ranks);
            String rankZero = results.get(0).stderr();
            assertTrue(rankZero.contains(":" + forged.getLocalPort() + ": its registration does not carry this job's"
                    + " secret"), rankZero);
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
            ranks.forEach(r -> r.process().destroyForcibly());
        }
    }

    /** Rank 2 joins 8 s late, so the coordinator is up and waiting while the test attacks it. */
    private List<QuireCommand.Running> startStep(String transport, int jobId) throws IOException {
        Path secret = directory.resolve("job-" + jobId + ".secret");
        JobSecret.generate().writeTo(secret);
        Path root = QuireCommand.repositoryRoot();
        List<QuireCommand.Running> ranks = new ArrayList<>();
        for (int rank = 0; rank < RANKS; rank++) {
            ProcessBuilder task = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dhazelcast.logging.type=none", "-cp", root.resolve("launcher/target/lib") + "/*:"
                    + "/usr/share/java/mpj.jar:" + QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner",
                    "2", "8");
            task.environment().keySet().removeIf(name -> name.startsWith("QUIRE_") || name.startsWith("SLURM_"));
            task.environment().putAll(java.util.Map.of("SLURM_PROCID", Integer.toString(rank),
                    "SLURM_STEP_NUM_TASKS", Integer.toString(RANKS), "SLURM_STEP_NODELIST", "localhost",
                    "SLURM_STEP_NUM_NODES", "1",
                    "SLURM_JOB_ID", Integer.toString(jobId), "SLURM_STEP_ID", "0", "QUIRE_TRANSPORT", transport,
                    "QUIRE_SECRET_FILE", secret.toString(), "MPJ_HOME", "/usr/share/mpj"));
            ranks.add(QuireCommand.startProcess(task));
        }
        return ranks;
    }

    /** The port Quire derives from the job and step ids (see SlurmEnvironment): public knowledge. */
    private static int derivedPort(int jobId) {
        return 30000 + Math.floorMod(jobId * 31L, 20000);
    }

    private static void awaitJoined(QuireCommand.Running rank) throws InterruptedException {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (!rank.stdoutSoFar().contains("rank 0 joined") && System.nanoTime() < deadline) {
            assertTrue(rank.process().isAlive(), () -> "rank 0 ended early:\n" + rank.stdoutSoFar());
            Thread.sleep(50);
        }
    }

    private static Socket awaitConnect(int port) throws InterruptedException {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (true) {
            try {
                return new Socket("127.0.0.1", port);
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("nothing listens on " + port + " within " + HANG);
                }
                Thread.sleep(50);
            }
        }
    }

    private static List<QuireCommand.Result> assertStepCompleted(List<QuireCommand.Running> ranks) throws Exception {
        List<QuireCommand.Result> results = new ArrayList<>();
        for (QuireCommand.Running rank : ranks) {
            QuireCommand.Result result = rank.await(HANG);
            assertEquals(0, result.exitCode(), result.toString());
            assertTrue(result.stdout().contains("world of " + RANKS + " verified"), result.toString());
            results.add(result);
        }
        return results;
    }
}
