package org.quire.runtime.mpj;

import org.quire.runtime.JobSecret;
import org.quire.runtime.mpj.RendezvousProtocol.Registration;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * The port exchange MPJ Express's niodev device needs during {@code MPI.Init}, so that N separate
 * JVMs form one world without {@code mpjrun} and its daemons (which want fixed ports and allow
 * one job per machine). Ranks do not reach it with niodev's own unauthenticated protocol but
 * through their {@link NiodevRelay}, with {@link RendezvousProtocol}: only registrations made with
 * the job secret count.
 *
 * <p>Each connection is served by its own thread with a read timeout, so an idle or slow
 * connection delays nobody. A connection that closes without sending anything (a port probe) is
 * ignored; one that sends garbage, a registration without the secret, or too little within
 * {@value #REGISTRATION_TIMEOUT_MILLIS} ms is dropped and reported in one line naming its
 * address; the job goes on. When all N ranks have registered each gets the peer information and
 * the server closes.
 */
public final class NiodevRendezvous implements AutoCloseable {

    /** How long a connection may take to send its registration. */
    static final int REGISTRATION_TIMEOUT_MILLIS = 10_000;
    /** Connections read at once; more are dropped at once, so a flood cannot exhaust threads. */
    private static final int MAX_UNREGISTERED = 256;

    private record Arrival(Socket socket, String address, byte[] nonce, Registration registration) {
    }

    private final ServerSocket server;
    private final int worldSize;
    private final JobSecret secret;
    private final String where;
    private final Arrival[] byRank;
    private final Semaphore unregistered = new Semaphore(MAX_UNREGISTERED);
    private int arrived;
    private boolean ended;

    private NiodevRendezvous(ServerSocket server, int worldSize, JobSecret secret) {
        this.server = server;
        this.worldSize = worldSize;
        this.secret = secret;
        this.where = server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
        this.byRank = new Arrival[worldSize];
    }

    /** Starts serving {@code worldSize} ranks on {@code bindAddress:port} (port 0: any free port). */
    public static NiodevRendezvous start(InetAddress bindAddress, int port, int worldSize, JobSecret secret)
            throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bindAddress, port), Math.max(50, worldSize));
        NiodevRendezvous rendezvous = new NiodevRendezvous(server, worldSize, secret);
        daemon(rendezvous::acceptAll, "niodev-rendezvous").start();
        return rendezvous;
    }

    /** The port ranks must be told. */
    public int port() {
        return server.getLocalPort();
    }

    private void acceptAll() {
        try {
            while (!server.isClosed()) {
                Socket socket = server.accept();
                if (!unregistered.tryAcquire()) {
                    drop(socket, addressOf(socket), MAX_UNREGISTERED + " other connections are being read");
                    continue;
                }
                daemon(() -> {
                    try {
                        serve(socket);
                    } finally {
                        unregistered.release();
                    }
                }, "niodev-rendezvous-" + socket.getPort()).start();
            }
        } catch (IOException closed) {
            // close() or the last registration closed the server socket: nothing more to accept.
        }
    }

    private void serve(Socket socket) {
        String address = addressOf(socket);
        byte[] nonce = RendezvousProtocol.newNonce();
        Registration registration;
        try {
            socket.setSoTimeout(REGISTRATION_TIMEOUT_MILLIS);
            socket.getOutputStream().write(RendezvousProtocol.challenge(nonce));
            InputStream in = socket.getInputStream();
            byte[] bytes = new byte[RendezvousProtocol.REGISTRATION_BYTES];
            int read = in.readNBytes(bytes, 0, bytes.length);
            if (read == 0) {
                closeQuietly(socket); // a probe: connected to see whether the server listens
                return;
            }
            if (read < bytes.length) {
                drop(socket, address, "it closed the connection after " + read + " of the " + bytes.length
                        + " bytes of a registration");
                return;
            }
            registration = RendezvousProtocol.verifiedRegistration(secret, nonce, bytes);
        } catch (SocketTimeoutException e) {
            drop(socket, address, "it sent no complete registration within " + REGISTRATION_TIMEOUT_MILLIS / 1000 + " s");
            return;
        } catch (IOException e) {
            drop(socket, address, "reading its registration failed: " + e.getMessage());
            return;
        }
        if (registration == null) {
            drop(socket, address, "its registration does not carry this job's secret");
            return;
        }
        arrive(new Arrival(socket, socket.getInetAddress().getHostAddress(), nonce, registration));
    }

    private void arrive(Arrival arrival) {
        List<Arrival> complete;
        synchronized (this) {
            int rank = arrival.registration().rank();
            if (ended) {
                closeQuietly(arrival.socket());
                return;
            }
            if (rank < 0 || rank >= worldSize || byRank[rank] != null) {
                // Made with the secret, so one of the job's own ranks: the job cannot form.
                fail("rank " + rank + " registered " + (rank < 0 || rank >= worldSize ? "but the world is 0.."
                        + (worldSize - 1) : "twice"));
                closeQuietly(arrival.socket());
                return;
            }
            byRank[rank] = arrival;
            if (++arrived < worldSize) {
                return;
            }
            ended = true;
            complete = List.of(byRank);
        }
        closeQuietly(server);
        String peers = peerInformation(complete);
        for (Arrival a : complete) {
            try (Socket socket = a.socket()) {
                RendezvousProtocol.writeAnswer(new DataOutputStream(socket.getOutputStream()), secret, a.nonce(), peers);
            } catch (IOException e) {
                System.err.println("quire: niodev rendezvous on " + where + ": cannot answer rank "
                        + a.registration().rank() + " at " + a.address() + ": " + e.getMessage());
            }
        }
    }

    private static String peerInformation(List<Arrival> byRank) {
        StringBuilder peers = new StringBuilder("#Peer Information");
        for (Arrival a : byRank) {
            Registration r = a.registration();
            peers.append(';').append(a.address()).append('@').append(r.readPort()).append('@')
                    .append(r.writePort()).append('@').append(r.rank()).append("@0");
        }
        return peers.toString();
    }

    private void drop(Socket socket, String address, String why) {
        System.err.println("quire: niodev rendezvous on " + where + ": dropped a connection from " + address + ": " + why);
        closeQuietly(socket);
    }

    /** Ends the rendezvous: the waiting ranks' connections close, so their MPI.Init fails instead of waiting. */
    private void fail(String why) {
        System.err.println("quire: niodev rendezvous on " + where + " failed: " + why);
        close();
    }

    @Override
    public void close() {
        List<Arrival> waiting = new ArrayList<>();
        synchronized (this) {
            ended = true;
            for (Arrival a : byRank) {
                if (a != null) {
                    waiting.add(a);
                }
            }
        }
        closeQuietly(server);
        waiting.forEach(a -> closeQuietly(a.socket()));
    }

    private static String addressOf(Socket socket) {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
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
