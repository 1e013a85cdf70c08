package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.runtime.JobSecret;
import org.quire.runtime.LaunchContract;
import org.quire.runtime.net.GuardedServer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strangers hold every place a launcher link reads connections in before a worker JVM starts, so
 * the hello its {@code -javaagent} sends as the JVM starts is dropped again and again: the worker
 * must keep trying, link once the flood ends, and leave only when that link closes.
 */
class LauncherLinkFloodIT {

    private static final int FLOOD_SECONDS = 6;

    @Test
    void aWorkerStartedDuringAFloodLinksWhenItEndsInsteadOfStopping(@TempDir Path dir) throws Exception {
        JobSecret secret = JobSecret.generate();
        Path secretFile = dir.resolve("secret-0");
        secret.writeTo(secretFile);
        Path stderr = dir.resolve("worker.err");
        List<Socket> flood = new ArrayList<>();
        Process worker = null;
        try {
            try (LauncherLinkServer links = LauncherLinkServer.start(secret, 1)) {
                String[] hostPort = links.address().split(":");
                InetAddress host = InetAddress.getByName(hostPort[0]);
                int port = Integer.parseInt(hostPort[1]);
                for (int i = 0; i < GuardedServer.MAX_BEING_READ; i++) {
                    flood.add(new Socket(host, port)); // idle: each holds a place for the link's 10 s hello limit
                }
                try (Socket oneTooMany = new Socket(host, port)) {
                    oneTooMany.setSoTimeout(5000);
                    assertEquals(-1, oneTooMany.getInputStream().read(), "every place is taken: a new one is dropped");
                }
                worker = startWorker(links.address(), secretFile, stderr);
                String first = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
                assertTrue(first != null && first.startsWith("pid "), "the worker's main runs: " + first);
                assertFalse(Files.exists(secretFile), "the agent read (and deleted) the secret file before main");
                assertFalse(worker.waitFor(FLOOD_SECONDS, TimeUnit.SECONDS),
                        "the worker stopped during the flood: " + Files.readString(stderr));
                flood.forEach(GuardedServer::closeQuietly);
                assertFalse(worker.waitFor(5, TimeUnit.SECONDS), "the worker stopped as the flood ended: "
                        + Files.readString(stderr));
                assertEquals("", Files.readString(stderr), "the worker reported nothing while it waited");
            } // the links close here, as when the launcher dies: only a worker that holds its link notices
            assertTrue(worker.waitFor(10, TimeUnit.SECONDS), "the worker outlived its launcher link");
            assertEquals(70, worker.exitValue());
            assertTrue(Files.readString(stderr).startsWith("quire: rank 0 stops: its launcher is gone (the acknowledged"
                    + " link to "), Files.readString(stderr));
        } finally {
            flood.forEach(GuardedServer::closeQuietly);
            if (worker != null) {
                worker.destroyForcibly();
            }
        }
    }

    /** A worker JVM as quire run starts it: with the runtime as -javaagent; its main idles before Quire.init. */
    private static Process startWorker(String link, Path secretFile, Path stderr) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + QuireCommand.moduleJar("runtime"), "-cp", System.getProperty("java.class.path"),
                "org.quire.launcher.workers.SlowStarter", "120");
        Map<String, String> env = builder.environment();
        env.put(LaunchContract.RANK, "0");
        env.put(LaunchContract.SIZE, "1");
        env.put(LaunchContract.TRANSPORT, "hazelcast");
        env.put(LaunchContract.COORDINATOR, "127.0.0.1:1");
        env.put(LaunchContract.JOB_ID, "flood-test");
        env.put(LaunchContract.SECRET_FILE, secretFile.toString());
        env.put(LaunchContract.LAUNCHER_LINK, link);
        return builder.redirectError(stderr.toFile()).start();
    }
}
