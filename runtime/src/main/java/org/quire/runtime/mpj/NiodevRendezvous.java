package org.quire.runtime.mpj;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * The port-exchange server MPJ Express's niodev device talks to during {@code MPI.Init}, so that
 * N separate JVMs form one world without {@code mpjrun} and its daemons (which want fixed ports
 * and allow one job per machine).
 *
 * <p>Protocol of MPJ Express 0.44 (read from {@code xdev.niodev.NIODevice}): each rank connects
 * once and sends, with {@link DataOutputStream}, {@code writeUTF("Sending Info")},
 * {@code writeInt(writePort)}, {@code writeInt(readPort)}, {@code writeInt(rank)}, then waits in
 * {@code readUTF()}. When all N ranks have arrived the server answers each with
 * {@code "#Peer Information;" + join(";", ip@readPort@writePort@rank@0)} for ranks 0..N-1 and
 * closes. A connection that closes before sending (a port probe) is ignored.
 */
public final class NiodevRendezvous implements AutoCloseable {

    private static final String GREETING = "Sending Info";

    private record Arrival(Socket socket, String address, int readPort, int writePort, int rank) {
    }

    private final ServerSocket server;
    private final int worldSize;
    private final Thread thread;

    private NiodevRendezvous(ServerSocket server, int worldSize) {
        this.server = server;
        this.worldSize = worldSize;
        this.thread = new Thread(this::serve, "niodev-rendezvous");
        this.thread.setDaemon(true);
    }

    /** Starts serving {@code worldSize} ranks on {@code bindAddress:port} (port 0: any free port). */
    public static NiodevRendezvous start(InetAddress bindAddress, int port, int worldSize) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bindAddress, port), worldSize);
        NiodevRendezvous rendezvous = new NiodevRendezvous(server, worldSize);
        rendezvous.thread.start();
        return rendezvous;
    }

    /** The port ranks must be told (the {@code #Server Port} of their device configuration). */
    public int port() {
        return server.getLocalPort();
    }

    private void serve() {
        List<Arrival> arrivals = new ArrayList<>(worldSize);
        try {
            while (arrivals.size() < worldSize) {
                Socket socket = server.accept();
                Arrival arrival = readArrival(socket);
                if (arrival != null) {
                    arrivals.add(arrival);
                }
            }
            String peers = peerInformation(arrivals);
            for (Arrival arrival : arrivals) {
                try (Socket socket = arrival.socket()) {
                    new DataOutputStream(socket.getOutputStream()).writeUTF(peers);
                }
            }
        } catch (IOException | IllegalStateException e) {
            // Closing the waiting ranks' sockets makes their MPI.Init fail, so the job ends
            // through the launcher's fail-fast instead of hanging.
            if (!server.isClosed()) {
                System.err.println("quire: niodev rendezvous on port " + port() + " failed: " + e.getMessage());
            }
            arrivals.forEach(a -> closeQuietly(a.socket()));
        } finally {
            closeQuietly(server);
        }
    }

    private static Arrival readArrival(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            String greeting = in.readUTF();
            if (!GREETING.equals(greeting)) {
                socket.close();
                return null;
            }
            int writePort = in.readInt();
            int readPort = in.readInt();
            int rank = in.readInt();
            return new Arrival(socket, socket.getInetAddress().getHostAddress(), readPort, writePort, rank);
        } catch (EOFException probe) {
            socket.close();
            return null;
        }
    }

    private String peerInformation(List<Arrival> arrivals) {
        Arrival[] byRank = new Arrival[worldSize];
        for (Arrival arrival : arrivals) {
            if (arrival.rank() < 0 || arrival.rank() >= worldSize || byRank[arrival.rank()] != null) {
                throw new IllegalStateException("niodev rank " + arrival.rank() + " arrived twice or is outside 0.."
                        + (worldSize - 1));
            }
            byRank[arrival.rank()] = arrival;
        }
        StringBuilder peers = new StringBuilder("#Peer Information");
        for (Arrival a : byRank) {
            peers.append(';').append(a.address()).append('@').append(a.readPort()).append('@')
                    .append(a.writePort()).append('@').append(a.rank()).append("@0");
        }
        return peers.toString();
    }

    @Override
    public void close() {
        closeQuietly(server);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Nothing more can be done about a socket that fails to close.
        }
    }
}
