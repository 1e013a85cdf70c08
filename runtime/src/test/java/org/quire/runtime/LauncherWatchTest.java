package org.quire.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
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

/** A worker JVM against a launcher played by the test. */
class LauncherWatchTest {

    /**
     * The launcher's accept backlog is full (as under a flood) for longer than the worker's connect
     * timeout: the worker must try again instead of taking the timeout for its launcher's death,
     * link once the backlog drains, and then leave when that link closes.
     */
    @Test
    void aConnectTimingOutOnAFullBacklogIsTriedAgain(@TempDir Path dir) throws Exception {
        JobSecret secret = JobSecret.generate();
        Path secretFile = dir.resolve("secret");
        secret.writeTo(secretFile);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket launcher = new ServerSocket(0, 1, loopback)) {
            List<Socket> backlog = fillBacklog(new InetSocketAddress(loopback, launcher.getLocalPort()));
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), WatchedWorker.class.getName());
            Map<String, String> env = builder.environment();
            env.put(LaunchContract.RANK, "0");
            env.put(LaunchContract.SIZE, "1");
            env.put(LaunchContract.TRANSPORT, "hazelcast");
            env.put(LaunchContract.COORDINATOR, "127.0.0.1:1");
            env.put(LaunchContract.JOB_ID, "watch-test");
            env.put(LaunchContract.SECRET_FILE, secretFile.toString());
            env.put(LaunchContract.LAUNCHER_LINK, loopback.getHostAddress() + ":" + launcher.getLocalPort());
            Path stderr = dir.resolve("stderr");
            Process worker = builder.redirectError(stderr.toFile()).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(),
                        StandardCharsets.UTF_8));
                assertEquals("started", out.readLine(), Files.readString(stderr));
                // Longer than the worker's 10 s connect timeout.
                assertFalse(worker.waitFor(13, TimeUnit.SECONDS), "the worker stopped while the backlog was full: "
                        + Files.readString(stderr));
                backlog.forEach(LauncherWatchTest::closeQuietly);
                try (Socket link = acknowledgedLink(launcher, secret)) {
                    assertFalse(worker.waitFor(2, TimeUnit.SECONDS), Files.readString(stderr));
                }
                assertTrue(worker.waitFor(10, TimeUnit.SECONDS), "the worker outlived its launcher's link");
                assertEquals(70, worker.exitValue());
                assertTrue(Files.readString(stderr).startsWith("quire: rank 0 stops: its launcher is gone (the"
                        + " acknowledged link to "), Files.readString(stderr));
            } finally {
                worker.destroyForcibly();
            }
        }
    }

    /** Connects until a connect times out: the listener's accept queue is then full. */
    private static List<Socket> fillBacklog(InetSocketAddress listener) throws IOException {
        List<Socket> queued = new ArrayList<>();
        while (queued.size() < 64) {
            Socket socket = new Socket();
            try {
                socket.connect(listener, 1000);
                queued.add(socket);
            } catch (SocketTimeoutException full) {
                socket.close();
                return queued;
            }
        }
        throw new IllegalStateException("64 connections queued on a listener of backlog 1: the test cannot fill it");
    }

    /** Accepts connections (dropping those from the backlog) until one is a rank's hello, and acknowledges it. */
    private static Socket acknowledgedLink(ServerSocket launcher, JobSecret secret) throws IOException {
        launcher.setSoTimeout(60_000);
        while (true) {
            Socket socket = launcher.accept();
            socket.setSoTimeout(10_000);
            byte[] hello = socket.getInputStream().readNBytes(LauncherLinkHello.BYTES);
            if (hello.length == LauncherLinkHello.BYTES && LauncherLinkHello.verifiedRank(secret, hello) == 0) {
                socket.getOutputStream().write(LauncherLinkHello.acknowledgement(secret, 0));
                return socket;
            }
            socket.close();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // A filler connection: nothing depends on its close.
        }
    }
}
