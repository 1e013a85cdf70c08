package org.quire.runtime.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quire.runtime.net.GuardedServer.Admission;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real connections to a listener with a short deadline, so the tests take seconds. */
class GuardedServerTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private final ByteArrayOutputStream reports = new ByteArrayOutputStream();
    private PrintStream stderr;

    @BeforeEach
    void captureReports() {
        stderr = System.err;
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(stderr);
    }

    /**
     * A connection sending a byte every 500 ms never stays silent for the 2 s limit, yet must be
     * closed 2 s after it was accepted: the limit is for the whole read, not for each read.
     */
    @Test
    void aConnectionTricklingBytesIsDroppedWhenTheWholeReadTakesLongerThanTheLimit() throws Exception {
        try (GuardedServer server = GuardedServer.bind(new InetSocketAddress(LOOPBACK, 0), "test listener",
                "greeting", 2000);
             Socket trickler = new Socket()) {
            server.serve(socket -> socket.getInputStream().readNBytes(100).length == 100
                    ? Admission.kept(() -> { }) : Admission.dropped("it closed early"));
            trickler.connect(new InetSocketAddress(LOOPBACK, server.port()));
            long start = System.nanoTime();
            try {
                while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20)) {
                    trickler.getOutputStream().write('x');
                    Thread.sleep(500);
                }
            } catch (IOException closedByTheServer) {
                // Expected: the server closed the connection.
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(seconds < 6, "the trickling connection was held " + seconds + " s; the limit is 2 s");
            assertReported("quire: test listener on " + server.address() + ": dropped a connection from "
                    + LOOPBACK.getHostAddress() + ":" + trickler.getLocalPort() + ": it sent no complete greeting"
                    + " within 2 s");
        }
    }

    /** A handler that admits a connection just after its deadline closed it: the commit must not run. */
    @Test
    void aConnectionAdmittedAsItsDeadlinePassesIsDroppedWithoutItsCommit() throws Exception {
        AtomicBoolean committed = new AtomicBoolean();
        try (GuardedServer server = GuardedServer.bind(new InetSocketAddress(LOOPBACK, 0), "test listener",
                "greeting", 1000);
             Socket client = new Socket()) {
            server.serve(socket -> {
                socket.getInputStream().read();
                sleep(1500); // the whole greeting has been read, and now the deadline passes
                return Admission.kept(() -> committed.set(true));
            });
            client.connect(new InetSocketAddress(LOOPBACK, server.port()));
            client.getOutputStream().write('x');
            client.setSoTimeout(10_000);
            assertEquals(-1, client.getInputStream().read(), "the connection is closed");
            assertReported("quire: test listener on " + server.address() + ": dropped a connection from "
                    + LOOPBACK.getHostAddress() + ":" + client.getLocalPort() + ": it sent no complete greeting"
                    + " within 1 s");
            assertFalse(committed.get(), "the handler kept a connection its deadline had closed");
        }
    }

    private void assertReported(String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!reports.toString(StandardCharsets.UTF_8).contains(line) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(line + System.lineSeparator(), reports.toString(StandardCharsets.UTF_8));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
