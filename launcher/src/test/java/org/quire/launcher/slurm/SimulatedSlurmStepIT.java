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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
    private static final String LATE_SECONDS = "8";

    @TempDir
    Path directory;

    @Test
    void anOutsiderWhoDerivesTheHazelcastPortAndOldClusterNameCannotJoin() throws Exception {
        int jobId = ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        JobSecret secret = JobSecret.generate();
        // Rank 2 joins 20 s late: the member must outlive both clients below.
        List<QuireCommand.Running> ranks = startStep("hazelcast", jobId, secret, "20");
        try {
            awaitJoined(ranks.get(0));
            HazelcastSettings.silenceLogging();
            String member = "127.0.0.1:" + derivedPort(jobId);
            // Positive control: a client with the step's real cluster name gets in at the derived address,
            // so the refusal below is the name's, not an empty port's.
            HazelcastClient.newHazelcastClient(client(HazelcastSettings.clusterName(secret, "slurm-" + jobId + ".0"),
                    member)).shutdown();
            assertThrows(IllegalStateException.class, () -> HazelcastClient.newHazelcastClient(
                    client("quire-slurm-" + jobId + ".0", member)));
            assertTrue(ranks.get(2).process().isAlive(), "the step was still forming while the clients tried");
            assertStepCompleted(ranks);
        } finally {
            ranks.forEach(r -> r.process().destroyForcibly());
        }
    }

    private static ClientConfig client(String clusterName, String member) {
        ClientConfig client = new ClientConfig();
        client.setClusterName(clusterName);
        client.getNetworkConfig().addAddress(member);
        client.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(3000);
        return client;
    }

    /**
     * A forged registration and an idle connection at rank 0's rendezvous on the derived port: both
     * dropped with their lines (rank 2 joins after the idle one's 10 s limit, so rank 0 is still
     * there to report it) and the step forms.
     */
    @Test
    void forgedRegistrationsAtRankZerosRendezvousAreDroppedAndTheStepForms() throws Exception {
        int jobId = ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        List<QuireCommand.Running> ranks = startStep("mpj", jobId, JobSecret.generate(), "14");
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
            String where = "quire: niodev rendezvous on 127.0.0.1:" + derivedPort(jobId) + ": dropped a connection from"
                    + " 127.0.0.1:";
            assertTrue(rankZero.contains(where + forged.getLocalPort() + ": its registration does not carry this job's"
                    + " secret"), rankZero);
            assertTrue(rankZero.contains(where + idle.getLocalPort() + ": it sent no complete registration within 10 s"),
                    rankZero);
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
            ranks.forEach(r -> r.process().destroyForcibly());
        }
    }

    /** A failure before the world forms is one line naming the cause, not a stack trace. */
    @Test
    void aSecretFileOthersMayReadStopsTheTaskWithOneLine() throws Exception {
        int jobId = ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
        Path secret = directory.resolve("job-" + jobId + ".secret");
        JobSecret.generate().writeTo(secret);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        QuireCommand.Result result = QuireCommand.runProcess(task(0, "mpj", jobId, secret, LATE_SECONDS), HANG);
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals("Exception in thread \"main\" org.quire.runtime.LaunchContractException: job secret file " + secret
                + " has mode rw-r--r--; expected rw------- (only its owner may read it)", result.stderr().strip(),
                result.toString());
    }

    /** Rank 2 joins {@code lateSeconds} late, so the coordinator is up and waiting while the test attacks it. */
    private List<QuireCommand.Running> startStep(String transport, int jobId, JobSecret jobSecret, String lateSeconds)
            throws IOException {
        Path secret = directory.resolve("job-" + jobId + ".secret");
        jobSecret.writeTo(secret);
        List<QuireCommand.Running> ranks = new ArrayList<>();
        for (int rank = 0; rank < RANKS; rank++) {
            ranks.add(QuireCommand.startProcess(task(rank, transport, jobId, secret, lateSeconds)));
        }
        return ranks;
    }

    /** One srun task of the step: srun's variables, no Slurm. */
    private static ProcessBuilder task(int rank, String transport, int jobId, Path secret, String lateSeconds) {
        Path root = QuireCommand.repositoryRoot();
        ProcessBuilder task = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dhazelcast.logging.type=none", "-cp", root.resolve("launcher/target/lib") + "/*:"
                + "/usr/share/java/mpj.jar:" + QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner",
                "2", lateSeconds);
        task.environment().keySet().removeIf(name -> name.startsWith("QUIRE_") || name.startsWith("SLURM_"));
        task.environment().putAll(java.util.Map.of("SLURM_PROCID", Integer.toString(rank),
                "SLURM_STEP_NUM_TASKS", Integer.toString(RANKS), "SLURM_STEP_NODELIST", "localhost",
                "SLURM_STEP_NUM_NODES", "1",
                "SLURM_JOB_ID", Integer.toString(jobId), "SLURM_STEP_ID", "0", "QUIRE_TRANSPORT", transport,
                "QUIRE_SECRET_FILE", secret.toString(), "MPJ_HOME", "/usr/share/mpj"));
        return task;
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
