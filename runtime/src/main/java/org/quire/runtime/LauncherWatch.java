package org.quire.runtime;

import org.quire.runtime.net.GuardedServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Stops a worker whose {@code quire run} is gone (killed with SIGKILL, say), so that no rank is
 * left blocked forever in a collective with peers that no longer exist.
 *
 * <p>The worker keeps a TCP connection to the launcher ({@value LaunchContract#LAUNCHER_LINK})
 * and waits on it for an end of stream: the kernel closes the launcher's sockets the moment it
 * dies, even while its parent has not reaped it yet. (A zombie still counts as alive for
 * {@link ProcessHandle#isAlive()}, so polling its pid would wait for the reaping.)
 *
 * <p>The link counts only once the launcher acknowledged the worker's hello
 * ({@link LauncherLinkHello}): a connection closed before that was dropped by a launcher that
 * lives (its listener was full, under a flood of strangers), so the worker tries again, for up to
 * {@value #ESTABLISH_MILLIS} ms, and then stops saying exactly that; so does a connect that times
 * out (the launcher's accept backlog overflowed under a flood). Only a connection refused (nobody
 * listens any more) or an acknowledged link that closes means the launcher is gone.
 */
final class LauncherWatch {

    /** Exit status of a worker that stops because its launcher died or cannot hold its link (EX_SOFTWARE). */
    private static final int ORPHANED_STATUS = 70;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** The launcher answers a hello at once; this covers a loaded machine. */
    private static final int ACKNOWLEDGEMENT_TIMEOUT_MILLIS = 15_000;
    /** How long a worker tries to get its hello acknowledged while strangers crowd the launcher. */
    static final long ESTABLISH_MILLIS = 120_000;
    private static final long RETRY_PAUSE_MILLIS = 500;

    private LauncherWatch() {
    }

    /** Establishes the link (on a daemon thread, so a crowded launcher delays nothing) and then watches it. */
    static void start(String host, int port, JobSecret secret, int rank) {
        String link = host + ":" + port;
        Thread watch = new Thread(() -> {
            Socket socket = establish(host, port, secret, rank, link);
            try (InputStream in = socket.getInputStream()) {
                while (in.read() >= 0) {
                    // The launcher sends nothing after its acknowledgement; only the end of the stream matters.
                }
            } catch (IOException closed) {
                // A reset connection means the same as an end of stream.
            }
            throw stop(rank, "its launcher is gone (the acknowledged link to " + link + " closed)");
        }, "quire-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }

    private static Socket establish(String host, int port, JobSecret secret, int rank, String link) {
        long deadline = System.currentTimeMillis() + ESTABLISH_MILLIS;
        int attempts = 0;
        while (true) {
            attempts++;
            Socket socket = new Socket();
            String failure;
            try {
                socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
                failure = hello(socket, secret, rank);
                if (failure == null) {
                    return socket;
                }
            } catch (ConnectException refused) {
                throw stop(rank, "cannot reach its launcher at " + link + " (" + refused.getMessage() + ")");
            } catch (IOException e) {
                // A connect that timed out: the launcher's accept backlog overflowed under a flood.
                failure = (socket.isConnected() ? "the hello failed: " : "the connection was not accepted: ")
                        + e.getMessage();
            }
            GuardedServer.closeQuietly(socket);
            if (System.currentTimeMillis() > deadline) {
                throw stop(rank, "cannot establish its link to the launcher at " + link + ": the launcher listens but "
                        + "did not hold the link in " + attempts + " attempts over " + ESTABLISH_MILLIS / 1000
                        + " s (last: " + failure + "); other connections may be crowding it");
            }
            sleep(RETRY_PAUSE_MILLIS);
        }
    }

    /** Sends the hello on {@code socket}; null when the launcher acknowledged it, else why not. */
    private static String hello(Socket socket, JobSecret secret, int rank) throws IOException {
        socket.getOutputStream().write(LauncherLinkHello.encode(secret, rank));
        socket.getOutputStream().flush();
        socket.setSoTimeout(ACKNOWLEDGEMENT_TIMEOUT_MILLIS);
        byte[] answer = socket.getInputStream().readNBytes(LauncherLinkHello.ACKNOWLEDGEMENT_BYTES);
        if (LauncherLinkHello.isAcknowledgement(secret, rank, answer)) {
            socket.setSoTimeout(0);
            return null;
        }
        return answer.length == 0 ? "it closed the connection without acknowledging the hello"
                : "its answer is not an acknowledgement made with this job's secret";
    }

    /** Ends the worker with one line; returns nothing (the JVM halts), so callers may {@code throw} it. */
    private static RuntimeException stop(int rank, String why) {
        System.err.println("quire: rank " + rank + " stops: " + why);
        System.err.flush();
        Runtime.getRuntime().halt(ORPHANED_STATUS);
        return new IllegalStateException(why); // not reached
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
