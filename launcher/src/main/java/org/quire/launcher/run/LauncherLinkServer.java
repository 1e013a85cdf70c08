package org.quire.launcher.run;

import org.quire.runtime.JobSecret;
import org.quire.runtime.LauncherLinkHello;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * The launcher's end of each worker's link: a loopback listener whose connections the launcher
 * holds open while it lives. The kernel closes them when the launcher dies, however it dies and
 * whether or not its parent reaps it, and each worker then stops itself
 * ({@code org.quire.runtime.LauncherWatch}). A connection must identify a rank of this job with
 * {@link LauncherLinkHello} within {@value #HELLO_TIMEOUT_MILLIS} ms; any other is dropped and
 * reported in one line.
 */
final class LauncherLinkServer implements AutoCloseable {

    private static final int HELLO_TIMEOUT_MILLIS = 10_000;

    private final ServerSocket server;
    private final JobSecret secret;
    private final int ranks;
    private final PrintStream err;
    private final List<Socket> links = new ArrayList<>();

    private LauncherLinkServer(ServerSocket server, JobSecret secret, int ranks, PrintStream err) {
        this.server = server;
        this.secret = secret;
        this.ranks = ranks;
        this.err = err;
    }

    static LauncherLinkServer start(JobSecret secret, int ranks, PrintStream err) throws IOException {
        LauncherLinkServer links = new LauncherLinkServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                secret, ranks, err);
        daemon(links::acceptAll, "quire-link-accept").start();
        return links;
    }

    /** {@code host:port} workers connect to. */
    String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    private void acceptAll() {
        try {
            while (true) {
                Socket socket = server.accept();
                daemon(() -> admit(socket), "quire-link-" + socket.getPort()).start();
            }
        } catch (IOException closed) {
            // close(): the job is over.
        }
    }

    private void admit(Socket socket) {
        String address = socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        String problem;
        try {
            socket.setSoTimeout(HELLO_TIMEOUT_MILLIS);
            byte[] hello = socket.getInputStream().readNBytes(LauncherLinkHello.BYTES);
            int rank = hello.length == LauncherLinkHello.BYTES ? LauncherLinkHello.verifiedRank(secret, hello) : -1;
            if (rank >= 0 && rank < ranks) {
                synchronized (links) {
                    links.add(socket);
                }
                return;
            }
            problem = hello.length < LauncherLinkHello.BYTES
                    ? "it closed the connection after " + hello.length + " of the " + LauncherLinkHello.BYTES + " bytes"
                    + " of a rank's hello" : "its hello does not carry this job's secret";
        } catch (SocketTimeoutException e) {
            problem = "it sent no hello within " + HELLO_TIMEOUT_MILLIS / 1000 + " s";
        } catch (IOException e) {
            problem = "reading its hello failed: " + e.getMessage();
        }
        err.println("quire: launcher link on " + address() + ": dropped a connection from " + address + ": " + problem);
        closeQuietly(socket);
    }

    @Override
    public void close() {
        closeQuietly(server);
        synchronized (links) {
            links.forEach(LauncherLinkServer::closeQuietly);
        }
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Nothing more can be done about a socket that fails to close.
        }
    }
}
