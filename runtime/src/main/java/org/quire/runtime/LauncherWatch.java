package org.quire.runtime;

import java.io.IOException;
import java.io.InputStream;
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
 */
final class LauncherWatch {

    /** Exit status of a worker that stops because its launcher died (EX_SOFTWARE). */
    private static final int ORPHANED_STATUS = 70;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private LauncherWatch() {
    }

    static void start(String host, int port, JobSecret secret, int rank) {
        String link = host + ":" + port;
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            socket.getOutputStream().write(LauncherLinkHello.encode(secret, rank));
            socket.getOutputStream().flush();
        } catch (IOException e) {
            orphaned(rank, "cannot reach its launcher at " + link + " (" + e.getMessage() + ")");
        }
        Thread watch = new Thread(() -> {
            try (InputStream in = socket.getInputStream()) {
                while (in.read() >= 0) {
                    // The launcher never sends anything; only the end of the stream matters.
                }
            } catch (IOException closed) {
                // A reset connection means the same as an end of stream.
            }
            orphaned(rank, "its launcher is gone (the link to " + link + " closed)");
        }, "quire-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }

    private static void orphaned(int rank, String why) {
        System.err.println("quire: rank " + rank + " stops: " + why);
        System.err.flush();
        Runtime.getRuntime().halt(ORPHANED_STATUS);
    }
}
