package org.quire.runtime.mpj;

import org.quire.runtime.WorldSpec;
import org.quire.runtime.mpj.RendezvousProtocol.Registration;

import org.quire.runtime.net.GuardedServer;
import org.quire.runtime.net.GuardedServer.Admission;
import org.quire.runtime.net.SocketOwner;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 * information. The relay is a {@link GuardedServer}: connections are read concurrently, each
 * within one deadline, so a stranger holding a connection open delays nobody; and a registration
 * is accepted only from a socket of this very JVM ({@link SocketOwner}), so another process cannot
 * register ports in this rank's name. Every other connection is dropped and reported in one line.
 *
 * <p>Every failure ends the rank at once with one line and status 1, so {@code quire run}'s
 * fail-fast (or {@code srun -K}) stops the job: a rendezvous that closes, an answer without the
 * secret, niodev not returning from {@code MPI.Init} within {@value #INIT_AFTER_ANSWER_MILLIS}
 * ms of the answer (niodev's own listeners, on all interfaces, hang when a stranger sends them
 * garbage at that moment), and {@code MPI.Init} taking more than {@value #INIT_DEADLINE_MILLIS}
 * ms in all, whatever held it. Neither limit counts the wait for the rendezvous's answer, which
 * comes when the slowest rank has registered: a peer that starts late is no failure, and a peer
 * that died ends the job through fail-fast. Tests shorten both limits with the system properties
 * {@value #INIT_DEADLINE_PROPERTY} and {@value #INIT_AFTER_ANSWER_PROPERTY} (milliseconds), and hold
 * niodev back from the relay with {@value #GATE_PROPERTY}.
 */
final class NiodevRelay {

    private static final String NIODEV_GREETING = "Sending Info";
    private static final byte[] NIODEV_GREETING_UTF = NIODEV_GREETING.getBytes(StandardCharsets.UTF_8);
    /** niodev connects as soon as its listeners are bound, well within this. */
    private static final int NIODEV_CONNECT_TIMEOUT_MILLIS = 60_000;
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    /** Under Slurm rank 0 starts the rendezvous while the others already wait for it. */
    private static final long RENDEZVOUS_WAIT_MILLIS = 120_000;
    static final long INIT_AFTER_ANSWER_MILLIS = 60_000;
    /** From the relay's start to {@code MPI.Init}'s return, whatever the step that holds it, not counting the answer's wait. */
    static final long INIT_DEADLINE_MILLIS = 300_000;
    static final String INIT_DEADLINE_PROPERTY = "quire.test.niodevInitMillis";
    static final String INIT_AFTER_ANSWER_PROPERTY = "quire.test.niodevInitAfterAnswerMillis";
    /**
     * A file; when given, {@link #start} returns (and niodev may register) only once it exists, so that
     * a test can reach the relay before niodev does (a property for tests only).
     */
    static final String GATE_PROPERTY = "quire.test.niodevRelayGate";
    private static final long GATE_POLL_MILLIS = 10;
    private static final long CLOCK_CHECK_MILLIS = 200;
    private static final int FAILED_STATUS = 1;

    private record Niodev(Socket socket, Registration registration) {
    }

    private final GuardedServer listener;
    private final WorldSpec spec;
    private final String coordinator;
    private final CompletableFuture<Niodev> niodevArrival = new CompletableFuture<>();
    private final CountDownLatch initReturned = new CountDownLatch(1);
    /** niodev's registration once it arrived: the ports of its listeners. */
    private volatile Registration niodevRegistration;
    private final long initDeadlineMillis = Long.getLong(INIT_DEADLINE_PROPERTY, INIT_DEADLINE_MILLIS);
    private final long initAfterAnswerMillis = Long.getLong(INIT_AFTER_ANSWER_PROPERTY, INIT_AFTER_ANSWER_MILLIS);
    /** The init clock: runs from the relay's start, stopped while the relay waits for the rendezvous's answer. */
    private final long clockStart = System.nanoTime();
    private long answerWaitStart = -1;
    private long answerWaitNanos;

    private NiodevRelay(GuardedServer listener, WorldSpec spec) {
        this.listener = listener;
        this.spec = spec;
        this.coordinator = spec.coordinatorHost() + ":" + spec.coordinatorPort();
    }

    static NiodevRelay start(WorldSpec spec) throws IOException {
        SocketOwner.requireProc(); // before MPI.Init: without /proc no registration could be accepted
        GuardedServer listener = GuardedServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                "niodev relay of rank " + spec.rank(), "niodev registration", READ_TIMEOUT_MILLIS);
        NiodevRelay relay = new NiodevRelay(listener, spec);
        listener.serve(relay::admit);
        daemon(relay::run, "niodev-relay").start();
        daemon(relay::enforceInitDeadline, "niodev-init-deadline").start();
        String gate = System.getProperty(GATE_PROPERTY);
        if (gate != null) {
            awaitFile(Path.of(gate)); // the relay's limits run meanwhile: a gate never opened fails the rank
        }
        return relay;
    }

    private static void awaitFile(Path file) throws IOException {
        try {
            while (!Files.exists(file)) {
                Thread.sleep(GATE_POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + file, e);
        }
    }

    /** The port niodev must be told as its {@code #Server Port}; the host is the loopback address. */
    int port() {
        return listener.port();
    }

    /** Called when {@code MPI.Init} returned: the relay's work is done. */
    void initReturned() {
        initReturned.countDown();
    }

    private void run() {
        Niodev niodev = awaitNiodev();
        Registration mine = niodev.registration();
        niodevRegistration = mine;
        try (Socket socket = niodev.socket()) {
            new DataOutputStream(socket.getOutputStream()).writeUTF(exchange(mine));
        } catch (IOException e) {
            throw fail("cannot hand the peer information to niodev: " + e.getMessage());
        }
        try {
            if (!initReturned.await(initAfterAnswerMillis, TimeUnit.MILLISECONDS)) {
                throw fail("MPJ niodev did not connect to its peers within " + initAfterAnswerMillis / 1000
                        + " s of the rendezvous's answer" + listenerExposure());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the rank when the init clock passes its limit before {@code MPI.Init} returned. */
    private void enforceInitDeadline() {
        try {
            while (!initReturned.await(CLOCK_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                if (initClockNanos() > TimeUnit.MILLISECONDS.toNanos(initDeadlineMillis)) {
                    throw fail("MPI.Init took more than " + initDeadlineMillis / 1000 + " s, not counting the wait"
                            + " for the other ranks to register" + listenerExposure());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized long initClockNanos() {
        long now = System.nanoTime();
        return now - clockStart - answerWaitNanos - (answerWaitStart < 0 ? 0 : now - answerWaitStart);
    }

    private synchronized void stopClock() {
        answerWaitStart = System.nanoTime();
    }

    private synchronized void restartClock() {
        answerWaitNanos += System.nanoTime() - answerWaitStart;
        answerWaitStart = -1;
    }

    /** Why niodev may have failed or waited, for messages: a peer, or a stranger at its listeners, which take anyone's connections. */
    String listenerExposure() {
        Registration r = niodevRegistration;
        return r == null ? "" : "; niodev's listeners (ports " + r.readPort() + " and " + r.writePort()
                + ", all interfaces) accept any connection while the world forms, and a peer that is slow or gone,"
                + " or data from another process there, makes niodev fail or wait";
    }

    /** Waits for niodev's registration of this rank, then stops listening. */
    private Niodev awaitNiodev() {
        try {
            return niodevArrival.get(NIODEV_CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw fail("niodev did not register with its relay on port " + port() + " within "
                    + NIODEV_CONNECT_TIMEOUT_MILLIS / 1000 + " s");
        } catch (InterruptedException | ExecutionException e) {
            throw fail("waiting for niodev's registration with its relay on port " + port() + " failed: " + e);
        } finally {
            listener.close();
        }
    }

    /**
     * Reads one connection: niodev's registration of this rank from a socket of this JVM is kept;
     * anything else is dropped. Reads are bounded: the greeting must have niodev's exact length.
     */
    private Admission admit(Socket socket) throws IOException {
        if (!SocketOwner.isThisProcess(socket)) {
            return Admission.dropped("it comes from another process; only niodev in this JVM registers here");
        }
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int greetingLength = in.readUnsignedShort();
        if (greetingLength != NIODEV_GREETING_UTF.length) {
            return Admission.dropped("it is not niodev: its greeting is " + greetingLength + " bytes long, niodev's is "
                    + NIODEV_GREETING_UTF.length);
        }
        if (!Arrays.equals(in.readNBytes(greetingLength), NIODEV_GREETING_UTF)) {
            return Admission.dropped("it is not niodev: its greeting is not \"" + NIODEV_GREETING + "\"");
        }
        int writePort = in.readInt();
        int readPort = in.readInt();
        int rank = in.readInt();
        if (rank != spec.rank()) {
            return Admission.dropped("it registers rank " + rank + "; this relay serves rank " + spec.rank());
        }
        Niodev niodev = new Niodev(socket, new Registration(rank, readPort, writePort));
        return Admission.kept(() -> {
            if (!niodevArrival.complete(niodev)) {
                throw new IOException("niodev has registered already");
            }
        });
    }

    /**
     * Registers this rank with the job's rendezvous and returns the verified peer information.
     * Every failure, whatever its kind, ends the rank with one line.
     */
    private String exchange(Registration mine) {
        try {
            Challenged rendezvous = challengedConnection();
            try (Socket socket = rendezvous.socket()) {
                socket.getOutputStream().write(RendezvousProtocol.registration(spec.secret(), rendezvous.nonce(), mine));
                socket.setSoTimeout(0); // the answer comes when the last rank has registered, however late
                stopClock();
                try {
                    return RendezvousProtocol.readAnswer(new DataInputStream(socket.getInputStream()), spec.secret(),
                            rendezvous.nonce(), coordinator);
                } finally {
                    restartClock();
                }
            }
        } catch (IOException e) {
            throw fail("the niodev rendezvous at " + coordinator + " failed: " + e.getMessage());
        } catch (RuntimeException e) {
            throw fail("the niodev rendezvous at " + coordinator + " failed: " + e);
        }
    }

    private record Challenged(Socket socket, byte[] nonce) {
    }

    /**
     * A connection to the rendezvous and its challenge. A connection refused (the rendezvous not
     * yet up) or closed before any byte of the challenge (dropped while strangers fill the
     * rendezvous's listener) is tried again for {@value #RENDEZVOUS_WAIT_MILLIS} ms.
     */
    private Challenged challengedConnection() throws IOException {
        long deadline = System.currentTimeMillis() + RENDEZVOUS_WAIT_MILLIS;
        while (true) {
            Socket socket = new Socket();
            String why;
            try {
                socket.connect(new InetSocketAddress(spec.coordinatorHost(), spec.coordinatorPort()), 1000);
                socket.setSoTimeout(READ_TIMEOUT_MILLIS);
                byte[] challenge = socket.getInputStream().readNBytes(RendezvousProtocol.CHALLENGE_BYTES);
                if (challenge.length > 0) {
                    byte[] nonce = RendezvousProtocol.nonceOf(challenge, coordinator);
                    if (nonce == null) {
                        socket.close();
                        throw new IOException("the server there is not a Quire niodev rendezvous");
                    }
                    return new Challenged(socket, nonce);
                }
                why = "it closed the connection before its challenge";
            } catch (SocketTimeoutException e) {
                why = "it sent no challenge within " + READ_TIMEOUT_MILLIS / 1000 + " s";
            } catch (IOException e) {
                if (socket.isConnected()) {
                    socket.close();
                    throw e;
                }
                why = e.getMessage();
            }
            socket.close();
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("no challenge within " + RENDEZVOUS_WAIT_MILLIS / 1000 + " s (last: " + why + ")");
            }
            sleep(100);
        }
    }

    /** Ends the rank with one line: the launcher or srun -K then stops the others. */
    private RuntimeException fail(String why) {
        System.err.println("quire: rank " + spec.rank() + " cannot join the niodev world: " + why);
        System.err.flush();
        Runtime.getRuntime().halt(FAILED_STATUS);
        return new IllegalStateException(why); // not reached
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
