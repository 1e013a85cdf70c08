package org.quire.launcher.run;

import org.quire.runtime.JobSecret;
import org.quire.runtime.LauncherLinkHello;
import org.quire.runtime.net.GuardedServer;
import org.quire.runtime.net.GuardedServer.Admission;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * The launcher's end of each worker's link: a loopback listener whose connections the launcher
 * holds open while it lives. The kernel closes them when the launcher dies, however it dies and
 * whether or not its parent reaps it, and each worker then stops itself
 * ({@code org.quire.runtime.LauncherWatch}). A connection must identify a rank of this job with
 * {@link LauncherLinkHello} within {@value #HELLO_TIMEOUT_MILLIS} ms; any other is dropped and
 * reported in one line ({@link GuardedServer}). A kept link is acknowledged, so a worker whose hello
 * was dropped (the listener full under a flood) tries again.
 */
final class LauncherLinkServer implements AutoCloseable {

    private static final int HELLO_TIMEOUT_MILLIS = 10_000;

    private final GuardedServer server;
    private final JobSecret secret;
    private final int ranks;
    private final List<Socket> links = new ArrayList<>();

    private LauncherLinkServer(GuardedServer server, JobSecret secret, int ranks) {
        this.server = server;
        this.secret = secret;
        this.ranks = ranks;
    }

    static LauncherLinkServer start(JobSecret secret, int ranks) throws IOException {
        LauncherLinkServer links = new LauncherLinkServer(GuardedServer.bind(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "launcher link", "hello",
                HELLO_TIMEOUT_MILLIS), secret, ranks);
        links.server.serve(links::admit);
        return links;
    }

    /** {@code host:port} workers connect to. */
    String address() {
        return server.address();
    }

    private Admission admit(Socket socket) throws IOException {
        byte[] hello = socket.getInputStream().readNBytes(LauncherLinkHello.BYTES);
        if (hello.length < LauncherLinkHello.BYTES) {
            return Admission.dropped("it closed the connection after " + hello.length + " of the "
                    + LauncherLinkHello.BYTES + " bytes of a rank's hello");
        }
        int rank = LauncherLinkHello.verifiedRank(secret, hello);
        if (rank < 0 || rank >= ranks) {
            return Admission.dropped("its hello does not carry this job's secret");
        }
        return Admission.kept(() -> {
            try {
                socket.getOutputStream().write(LauncherLinkHello.acknowledgement(secret, rank));
            } catch (IOException e) {
                throw new IOException("cannot acknowledge its hello: " + e.getMessage(), e);
            }
            socket.setSoTimeout(0); // from now on the link is only held, never read
            synchronized (links) {
                links.add(socket);
            }
        });
    }

    @Override
    public void close() {
        server.close();
        synchronized (links) {
            links.forEach(GuardedServer::closeQuietly);
        }
    }
}
