package org.quire.runtime.mpj;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plays niodev's side of MPI.Init against the rendezvous, byte for byte as MPJ Express 0.44 does. */
class NiodevRendezvousTest {

    @Test
    void answersEveryRankWithAllPeersInRankOrderAndIgnoresProbes() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (NiodevRendezvous rendezvous = NiodevRendezvous.start(loopback, 0, 3)) {
            // A port probe, as ranks waiting for the server make: connect and close without data.
            new Socket(loopback, rendezvous.port()).close();
            List<CompletableFuture<String>> answers = new ArrayList<>();
            for (int rank : new int[] {2, 0, 1}) {
                answers.add(CompletableFuture.supplyAsync(() -> arrive(loopback, rendezvous.port(), rank)));
            }
            String expected = "#Peer Information;127.0.0.1@1000@2000@0@0;127.0.0.1@1001@2001@1@0;127.0.0.1@1002@2002@2@0";
            for (CompletableFuture<String> answer : answers) {
                assertEquals(expected, answer.get());
            }
        }
    }

    private static String arrive(InetAddress host, int port, int rank) {
        try (Socket socket = new Socket(host, port)) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeUTF("Sending Info");
            out.writeInt(2000 + rank); // write port
            out.writeInt(1000 + rank); // read port
            out.writeInt(rank);
            out.flush();
            return new DataInputStream(socket.getInputStream()).readUTF();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void recognisesMpjrunArguments() {
        assertTrue(MpjBootstrap.isMpjrunArguments(new String[] {"0", "4", "smpdev"}));
        assertTrue(MpjBootstrap.isMpjrunArguments(new String[] {"3", "#Number of Processes;4", "niodev", "app"}));
        assertFalse(MpjBootstrap.isMpjrunArguments(new String[] {"0", "4"}));
        assertFalse(MpjBootstrap.isMpjrunArguments(new String[] {"input.dat", "4", "smpdev"}));
        assertFalse(MpjBootstrap.isMpjrunArguments(new String[] {"0", "4", "fastdev"}));
    }
}
