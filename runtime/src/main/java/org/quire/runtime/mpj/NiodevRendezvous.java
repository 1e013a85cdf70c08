package org.quire.runtime.mpj;

import org.quire.runtime.JobSecret;
import org.quire.runtime.mpj.RendezvousProtocol.Registration;
import org.quire.runtime.net.GuardedServer;
import org.quire.runtime.net.GuardedServer.Admission;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * The port exchange MPJ Express's niodev device needs during {@code MPI.Init}, so that N separate
 * JVMs form one world without {@code mpjrun} and its daemons (which want fixed ports and allow
 * one job per machine). Ranks do not reach it with niodev's own unauthenticated protocol but
 * through their {@link NiodevRelay}, with {@link RendezvousProtocol}: only registrations made with
 * the job secret count.
 *
 * <p>Connections are read by a {@link GuardedServer}: an idle or slow one delays nobody. A
 * connection that closes without sending anything (a port probe) is ignored; one that sends
 * garbage, a registration without the secret, or too little within
 * {@value #REGISTRATION_TIMEOUT_MILLIS} ms is dropped and reported in one line naming its address;
 * the job goes on. When all N ranks have registered each gets the peer information and the
 * listener closes.
 */
public final class NiodevRendezvous implements AutoCloseable {

    /** How long a connection may take to send its registration. */
    static final int REGISTRATION_TIMEOUT_MILLIS = 10_000;

    private record Arrival(Socket socket, String address, byte[] nonce, Registration registration) {
    }

    private final int worldSize;
    private final JobSecret secret;
    private final Arrival[] byRank;
    private final GuardedServer server;
    private int arrived;
    private boolean ended;

    private NiodevRendezvous(GuardedServer server, int worldSize, JobSecret secret) {
        this.server = server;
        this.worldSize = worldSize;
        this.secret = secret;
        this.byRank = new Arrival[worldSize];
    }

    /** Starts serving {@code worldSize} ranks on {@code bindAddress:port} (port 0: any free port). */
    public static NiodevRendezvous start(InetAddress bindAddress, int port, int worldSize, JobSecret secret)
            throws IOException {
        NiodevRendezvous rendezvous = new NiodevRendezvous(GuardedServer.bind(new InetSocketAddress(bindAddress, port),
                "niodev rendezvous", "registration", REGISTRATION_TIMEOUT_MILLIS), worldSize, secret);
        rendezvous.server.serve(rendezvous::admit);
        return rendezvous;
    }

    /** The port ranks must be told. */
    public int port() {
        return server.port();
    }

    private Admission admit(Socket socket) throws IOException {
        byte[] nonce = RendezvousProtocol.newNonce();
        socket.getOutputStream().write(RendezvousProtocol.challenge(nonce));
        byte[] bytes = new byte[RendezvousProtocol.REGISTRATION_BYTES];
        int read = socket.getInputStream().readNBytes(bytes, 0, bytes.length);
        if (read == 0) {
            return Admission.ignored(); // a probe: connected to see whether the server listens
        }
        if (read < bytes.length) {
            return Admission.dropped("it closed the connection after " + read + " of the " + bytes.length
                    + " bytes of a registration");
        }
        Registration registration = RendezvousProtocol.verifiedRegistration(secret, nonce, bytes);
        if (registration == null) {
            return Admission.dropped("its registration does not carry this job's secret");
        }
        return Admission.kept(() -> arrive(new Arrival(socket, socket.getInetAddress().getHostAddress(), nonce,
                registration)));
    }

    private void arrive(Arrival arrival) {
        List<Arrival> complete;
        synchronized (this) {
            int rank = arrival.registration().rank();
            if (ended) {
                GuardedServer.closeQuietly(arrival.socket());
                return;
            }
            if (rank < 0 || rank >= worldSize || byRank[rank] != null) {
                // Made with the secret, so one of the job's own ranks: the job cannot form.
                server.report("failed: rank " + rank + " registered " + (rank < 0 || rank >= worldSize
                        ? "but the world is 0.." + (worldSize - 1) : "twice"));
                GuardedServer.closeQuietly(arrival.socket());
                close();
                return;
            }
            byRank[rank] = arrival;
            if (++arrived < worldSize) {
                return;
            }
            ended = true;
            complete = List.of(byRank);
        }
        server.close();
        String peers = peerInformation(complete);
        for (Arrival a : complete) {
            try (Socket socket = a.socket()) {
                RendezvousProtocol.writeAnswer(new DataOutputStream(socket.getOutputStream()), secret, a.nonce(), peers);
            } catch (IOException e) {
                server.report("cannot answer rank " + a.registration().rank() + " at " + a.address() + ": "
                        + e.getMessage());
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

    /** Ends the rendezvous: the waiting ranks' connections close, so their relays fail instead of waiting. */
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
        server.close();
        waiting.forEach(a -> GuardedServer.closeQuietly(a.socket()));
    }
}
