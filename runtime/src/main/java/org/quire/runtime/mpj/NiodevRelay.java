package org.quire.runtime.mpj;

import org.quire.runtime.WorldSpec;
import org.quire.runtime.mpj.RendezvousProtocol.Registration;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The server niodev registers with during {@code MPI.Init}, inside each rank: niodev's own
 * protocol carries no secret, so niodev talks it only to this relay, on loopback in its own JVM,
 * and the relay forwards the registration to the job's {@link NiodevRendezvous} with
 * {@link RendezvousProtocol}, authenticated with the job secret, and hands niodev the verified
 * answer.
 *
 * <p>niodev's protocol (MPJ Express 0.44, {@code xdev.niodev.NIODevice}): it connects once and
 * sends, with {@link DataOutputStream}, {@code writeUTF("Sending Info")}, {@code writeInt(writePort)},
 * {@code writeInt(readPort)}, {@code writeInt(rank)}, then waits in {@code readUTF()} for the peer
 * information. A connection to the relay that says anything else is dropped and reported; niodev's
 * own connection follows at once.
 *
 * <p>Every failure ends the rank at once with one line and status 1, so {@code quire run}'s
 * fail-fast (or {@code srun -K}) stops the job: a rendezvous that closes, an answer without the
 * secret, and niodev not returning from {@code MPI.Init} within {@value #INIT_AFTER_ANSWER_MILLIS}
 * ms of the answer (niodev's own listeners, on all interfaces, hang when a stranger sends them
 * garbage at that moment).
 */
final class NiodevRelay {

    private static final String NIODEV_GREETING = "Sending Info";
    /** niodev connects as soon as its listeners are bound, well within this. */
    private static final int NIODEV_CONNECT_TIMEOUT_MILLIS = 60_000;
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    /** Under Slurm rank 0 starts the rendezvous while the others already wait for it. */
    private static final long RENDEZVOUS_WAIT_MILLIS = 120_000;
    static final long INIT_AFTER_ANSWER_MILLIS = 60_000;
    private static final int FAILED_STATUS = 1;

    private record Niodev(Socket socket, Registration registration) {
    }

    private final ServerSocket listener;
    private final WorldSpec spec;
    private final String coordinator;
    private final CountDownLatch initReturned = new CountDownLatch(1);
    /** niodev's registration once it arrived: the ports of its listeners. */
    private volatile Registration niodevRegistration;

    private NiodevRelay(ServerSocket listener, WorldSpec spec) {
        this.listener = listener;
        this.spec = spec;
        this.coordinator = spec.coordinatorHost() + ":" + spec.coordinatorPort();
    }

    static NiodevRelay start(WorldSpec spec) throws IOException {
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        NiodevRelay relay = new NiodevRelay(listener, spec);
        Thread thread = new Thread(relay::run, "niodev-relay");
        thread.setDaemon(true);
        thread.start();
        return relay;
    }

    /** The port niodev must be told as its {@code #Server Port}; the host is the loopback address. */
    int port() {
        return listener.getLocalPort();
    }

    /** Called when {@code MPI.Init} returned: the relay's work is done. */
    void initReturned() {
        initReturned.countDown();
    }

    private void run() {
        Niodev niodev;
        try (listener) {
            niodev = awaitNiodev();
        } catch (IOException e) {
            throw fail("niodev did not register with its relay on port " + port() + ": " + e.getMessage());
        }
        Registration mine = niodev.registration();
        niodevRegistration = mine;
        try (Socket socket = niodev.socket()) {
            new DataOutputStream(socket.getOutputStream()).writeUTF(exchange(mine));
        } catch (IOException e) {
            throw fail("cannot hand the peer information to niodev: " + e.getMessage());
        }
        try {
            if (!initReturned.await(INIT_AFTER_ANSWER_MILLIS, TimeUnit.MILLISECONDS)) {
                throw fail("MPJ niodev did not connect to its peers within " + INIT_AFTER_ANSWER_MILLIS / 1000
                        + " s of the rendezvous" + listenerExposure());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why niodev may have failed, for messages: its listeners take connections from anyone while the world forms. */
    String listenerExposure() {
        Registration r = niodevRegistration;
        return r == null ? "" : "; niodev's listeners (ports " + r.readPort() + " and " + r.writePort()
                + ", all interfaces) accept any connection while the world forms, and data from another process"
                + " there makes niodev fail or wait";
    }

    /** Waits for niodev's registration of this rank; any other connection is dropped and reported. */
    private Niodev awaitNiodev() throws IOException {
        long deadline = System.currentTimeMillis() + NIODEV_CONNECT_TIMEOUT_MILLIS;
        while (true) {
            listener.setSoTimeout((int) Math.max(1, deadline - System.currentTimeMillis()));
            Socket socket = listener.accept();
            String address = socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
            String problem;
            try {
                socket.setSoTimeout(READ_TIMEOUT_MILLIS);
                DataInputStream in = new DataInputStream(socket.getInputStream());
                String greeting = in.readUTF();
                int writePort = in.readInt();
                int readPort = in.readInt();
                int rank = in.readInt();
                if (NIODEV_GREETING.equals(greeting) && rank == spec.rank()) {
                    return new Niodev(socket, new Registration(rank, readPort, writePort));
                }
                problem = "it is not niodev registering rank " + spec.rank();
            } catch (SocketTimeoutException e) {
                problem = "it sent no complete registration within " + READ_TIMEOUT_MILLIS / 1000 + " s";
            } catch (IOException e) {
                problem = "reading its registration failed: " + e;
            }
            System.err.println("quire: rank " + spec.rank() + ": dropped a connection from " + address
                    + " to its niodev relay: " + problem);
            socket.close();
        }
    }

    /** Registers this rank with the job's rendezvous and returns the verified peer information. */
    private String exchange(Registration mine) {
        try (Socket socket = connectToRendezvous()) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] nonce = RendezvousProtocol.nonceOf(in.readNBytes(RendezvousProtocol.CHALLENGE_BYTES));
            if (nonce == null) {
                throw fail("the server at " + coordinator + " is not a Quire niodev rendezvous");
            }
            socket.getOutputStream().write(RendezvousProtocol.registration(spec.secret(), nonce, mine));
            socket.setSoTimeout(0); // the answer comes when the last rank has registered
            return RendezvousProtocol.readAnswer(in, spec.secret(), nonce, coordinator);
        } catch (IOException e) {
            throw fail("the niodev rendezvous at " + coordinator + " failed: " + e.getMessage());
        }
    }

    private Socket connectToRendezvous() throws IOException {
        long deadline = System.currentTimeMillis() + RENDEZVOUS_WAIT_MILLIS;
        while (true) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(spec.coordinatorHost(), spec.coordinatorPort()), 1000);
                return socket;
            } catch (IOException e) {
                socket.close();
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("nothing answered within " + RENDEZVOUS_WAIT_MILLIS / 1000 + " s ("
                            + e.getMessage() + ")");
                }
                sleep(100);
            }
        }
    }

    /** Ends the rank with one line: the launcher or srun -K then stops the others. */
    private RuntimeException fail(String why) {
        System.err.println("quire: rank " + spec.rank() + " cannot join the niodev world: " + why);
        System.err.flush();
        Runtime.getRuntime().halt(FAILED_STATUS);
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
