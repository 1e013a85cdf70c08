package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.quire.runtime.JobSecret;
import org.quire.runtime.LauncherLinkHello;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Hellos to a real launcher link over loopback. */
class LauncherLinkServerTest {

    @Test
    void aHelloForRankZeroMadeWithAnotherSecretIsRefusedAndOneWithTheJobsIsAcknowledged() throws Exception {
        JobSecret secret = JobSecret.generate();
        PrintStream stderr = System.err;
        ByteArrayOutputStream reports = new ByteArrayOutputStream();
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
        try (LauncherLinkServer links = LauncherLinkServer.start(secret, 2);
             Socket forged = connect(links);
             Socket genuine = connect(links)) {
            forged.getOutputStream().write(LauncherLinkHello.encode(JobSecret.generate(), 0));
            assertEquals(0, forged.getInputStream().readAllBytes().length, "a forged hello gets no acknowledgement");
            String line = "quire: launcher link on " + links.address() + ": dropped a connection from "
                    + forged.getLocalAddress().getHostAddress() + ":" + forged.getLocalPort()
                    + ": its hello does not carry this job's secret";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!reports.toString(StandardCharsets.UTF_8).contains(line) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(line + System.lineSeparator(), reports.toString(StandardCharsets.UTF_8));

            genuine.getOutputStream().write(LauncherLinkHello.encode(secret, 0));
            assertArrayEquals(LauncherLinkHello.acknowledgement(secret, 0),
                    genuine.getInputStream().readNBytes(LauncherLinkHello.ACKNOWLEDGEMENT_BYTES));
        } finally {
            System.setErr(stderr);
        }
    }

    private static Socket connect(LauncherLinkServer links) throws Exception {
        String[] hostPort = links.address().split(":");
        Socket socket = new Socket(InetAddress.getByName(hostPort[0]), Integer.parseInt(hostPort[1]));
        socket.setSoTimeout(10_000);
        return socket;
    }
}
