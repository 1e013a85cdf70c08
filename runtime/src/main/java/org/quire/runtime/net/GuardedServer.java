package org.quire.runtime.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.Semaphore;

/**
 * A TCP listener that expects strangers as well as the job's own processes: each connection is
 * read on its own daemon thread with a read timeout, so an idle or slow one delays nobody; at most
 * {@value #MAX_BEING_READ} are read at once (more are dropped at once, so a flood cannot exhaust
 * threads); and a connection that is not admitted is closed and reported in one line naming the
 * listener and the connection's address, e.g.
 * {@code quire: niodev rendezvous on 127.0.0.1:41293: dropped a connection from 127.0.0.1:43906: <why>}.
 */
public final class GuardedServer implements AutoCloseable {

    static final int MAX_BEING_READ = 256;

    /** What becomes of a connection once read. */
    public record Admission(boolean socketKept, String dropReason) {

        /** The connection belongs to the job; the handler keeps (and later closes) the socket. */
        public static Admission kept() {
            return new Admission(true, null);
        }

        /** Closed without a word: e.g. a port probe that closed without sending anything. */
        public static Admission ignored() {
            return new Admission(false, null);
        }

        /** Closed and reported with {@code why}. */
        public static Admission dropped(String why) {
            return new Admission(false, why);
        }
    }

    /** Reads a connection (the socket already has the read timeout) and decides what becomes of it. */
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

    private GuardedServer(ServerSocket server, String name, String expected, int readTimeoutMillis) {
        this.server = server;
        this.name = name;
        this.expected = expected;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /**
     * Listens on {@code bindAddress} (port 0: any free port); connections wait in the backlog until
     * {@link #serve}. {@code name} says what the listener is in reports ("niodev rendezvous"),
     * {@code expected} what a connection must send within {@code readTimeoutMillis} ("registration").
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
        try {
            while (true) {
                Socket socket = server.accept();
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
        } catch (IOException closed) {
            // close(): nothing more to accept.
        }
    }

    private void serve(Socket socket) {
        Admission admission;
        try {
            socket.setSoTimeout(readTimeoutMillis);
            admission = handler.admit(socket);
        } catch (SocketTimeoutException e) {
            admission = Admission.dropped("it sent no complete " + expected + " within " + readTimeoutMillis / 1000 + " s");
        } catch (IOException e) {
            admission = Admission.dropped("reading its " + expected + " failed: " + e.getMessage());
        }
        if (admission.socketKept()) {
            return;
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
