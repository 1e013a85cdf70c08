package org.quire.runtime.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP listener that expects strangers as well as the job's own processes: each connection is
 * read on its own daemon thread and closed when it has not been admitted within one deadline for
 * the whole read (not per read, so a connection trickling a byte at a time is closed as soon as
 * an idle one), so an idle or slow one delays nobody for long; at most
 * {@value #MAX_BEING_READ} are read at once (more are dropped at once, so a flood cannot exhaust
 * threads); and a connection that is not admitted is closed and reported in one line naming the
 * listener and the connection's address, e.g.
 * {@code quire: niodev rendezvous on 127.0.0.1:41293: dropped a connection from 127.0.0.1:43906: <why>}.
 */
public final class GuardedServer implements AutoCloseable {

    /** Connections read at once; more are dropped as soon as accepted. */
    public static final int MAX_BEING_READ = 256;
    private static final long ACCEPT_RETRY_MILLIS = 1000;

    /** What a handler does with a connection it admitted, once the connection's deadline can no longer close it. */
    @FunctionalInterface
    public interface Commit {
        /** Keeps the connection (answers it, stores the socket); an {@link IOException} drops it with its message. */
        void run() throws IOException;
    }

    /**
     * What becomes of a connection once read: kept, with what to do to keep it ({@code commit}), or
     * closed, reported when there is a {@code dropReason}.
     */
    public record Admission(Commit commit, String dropReason) {

        /**
         * The connection belongs to the job: once its deadline is cancelled {@code commit} runs and
         * the handler keeps (and later closes) the socket. A connection admitted just as its
         * deadline passed is dropped without {@code commit}, so it is never half-kept.
         */
        public static Admission kept(Commit commit) {
            return new Admission(commit, null);
        }

        /** Closed without a word: e.g. a port probe that closed without sending anything. */
        public static Admission ignored() {
            return new Admission(null, null);
        }

        /** Closed and reported with {@code why}. */
        public static Admission dropped(String why) {
            return new Admission(null, why);
        }

        boolean socketKept() {
            return commit != null;
        }
    }

    /** Reads a connection (closed under it at the deadline) and decides what becomes of it. */
    @FunctionalInterface
    public interface Handler {
        Admission admit(Socket socket) throws IOException;
    }

    private final ServerSocket server;
    private final String name;
    private final String expected;
    private final int readTimeoutMillis;
    private Handler handler;
    private final Semaphore beingRead = new Semaphore(MAX_BEING_READ);
    /** Closes connections whose deadline passed; one thread for all listeners of the JVM. */
    private static final ScheduledThreadPoolExecutor DEADLINES = deadlineCloser();

    private GuardedServer(ServerSocket server, String name, String expected, int readTimeoutMillis) {
        this.server = server;
        this.name = name;
        this.expected = expected;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /**
     * Listens on {@code bindAddress} (port 0: any free port); connections wait in the backlog until
     * {@link #serve}. {@code name} says what the listener is in reports ("niodev rendezvous"),
     * {@code expected} what a connection must send, in all, within {@code readTimeoutMillis} ("registration").
     */
    public static GuardedServer bind(InetSocketAddress bindAddress, String name, String expected,
                                     int readTimeoutMillis) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(bindAddress, 50);
        return new GuardedServer(server, name, expected, readTimeoutMillis);
    }

    /** Starts accepting connections and serving each with {@code handler}; call once. */
    public void serve(Handler handler) {
        this.handler = handler;
        daemon(this::acceptAll, name + " accept").start(); // the start publishes handler to the thread
    }

    /** {@code host:port} of the listener. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** {@code host:port} of the far end of {@code socket}. */
    public static String addressOf(Socket socket) {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** Reports one line about this listener on stderr. */
    public void report(String what) {
        System.err.println("quire: " + name + " on " + address() + ": " + what);
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    // E.g. out of file descriptors under a flood: the listener must go on once some are freed.
                    report("cannot accept a connection (" + e.getMessage() + "); trying again in "
                            + ACCEPT_RETRY_MILLIS + " ms");
                    pause(ACCEPT_RETRY_MILLIS);
                }
                continue;
            }
            if (!beingRead.tryAcquire()) {
                drop(socket, MAX_BEING_READ + " other connections are being read");
                continue;
            }
            daemon(() -> {
                try {
                    serve(socket);
                } finally {
                    beingRead.release();
                }
            }, name + " " + socket.getPort()).start();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve(Socket socket) {
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = DEADLINES.schedule(() -> {
            expired.set(true);
            closeQuietly(socket);
        }, readTimeoutMillis, TimeUnit.MILLISECONDS);
        String late = "it sent no complete " + expected + " within " + readTimeoutMillis / 1000 + " s";
        Admission admission;
        try {
            socket.setSoTimeout(readTimeoutMillis);
            admission = handler.admit(socket);
        } catch (SocketTimeoutException e) {
            admission = Admission.dropped(late);
        } catch (IOException e) {
            admission = Admission.dropped(expired.get() ? late : "reading its " + expected + " failed: " + e.getMessage());
        } catch (RuntimeException e) {
            admission = Admission.dropped("reading its " + expected + " failed: " + e);
        }
        if (!deadline.cancel(false) && admission.socketKept()) {
            admission = Admission.dropped(late); // the deadline closed the socket just as it was admitted
        }
        if (admission.socketKept()) {
            try {
                admission.commit().run();
                return;
            } catch (IOException e) {
                admission = Admission.dropped(e.getMessage());
            }
        }
        if (admission.dropReason() != null) {
            drop(socket, admission.dropReason());
        } else {
            closeQuietly(socket);
        }
    }

    private void drop(Socket socket, String why) {
        report("dropped a connection from " + addressOf(socket) + ": " + why);
        closeQuietly(socket);
    }

    /** Stops accepting; connections already kept are their handler's. */
    @Override
    public void close() {
        closeQuietly(server);
    }

    private static ScheduledThreadPoolExecutor deadlineCloser() {
        ScheduledThreadPoolExecutor closer = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1,
                body -> daemon(body, "quire connection deadlines"));
        closer.setRemoveOnCancelPolicy(true); // a flood of admitted connections leaves no cancelled tasks behind
        return closer;
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Closes a socket or server whose failure to close leaves nothing to do. */
    public static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Nothing more can be done about a socket that fails to close.
        }
    }
}
