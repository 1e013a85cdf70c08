package org.quire.runtime.net;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real connections from this JVM and from another process, over loopback. */
class SocketOwnerTest {

    /**
     * Another process binds 127.0.0.2 with the very source port of this JVM's own connection to
     * the listener, so only the addresses tell the two apart: it must not count as this JVM's, nor
     * make this JVM's own connection count as foreign. Both of Linux's tables are exercised: the
     * other JVM's socket is IPv4 ({@code tcp}) or IPv6 with a mapped address ({@code tcp6}).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void tellsAConnectionFromAnotherProcessSharingTheSourcePortFromThisJvmsOwn(boolean foreignIpv4Stack)
            throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
             Socket own = new Socket("127.0.0.1", listener.getLocalPort());
             Socket ownAccepted = listener.accept()) {
            Process foreign = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djava.net.preferIPv4Stack=" + foreignIpv4Stack,
                    "-cp", System.getProperty("java.class.path"), ForeignConnector.class.getName(),
                    "127.0.0.2", Integer.toString(own.getLocalPort()), Integer.toString(listener.getLocalPort())))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(foreign.getInputStream(),
                        StandardCharsets.UTF_8));
                assertEquals("connected", out.readLine(), "the other process connects from 127.0.0.2");
                try (Socket foreignAccepted = listener.accept()) {
                    assertEquals(own.getLocalPort(), foreignAccepted.getPort(), "both peers share the source port");
                    assertFalse(SocketOwner.isThisProcess(foreignAccepted), "the other process's connection");
                    assertTrue(SocketOwner.isThisProcess(ownAccepted), "this JVM's own connection");
                }
            } finally {
                foreign.getOutputStream().close();
                assertTrue(foreign.waitFor(30, TimeUnit.SECONDS));
            }
        }
    }
}
