package org.quire.runtime.mpj;

import org.junit.jupiter.api.Test;
import org.quire.runtime.JobSecret;
import org.quire.runtime.mpj.RendezvousProtocol.Registration;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plays the ranks' relays (and strangers) against the rendezvous, over loopback. */
class NiodevRendezvousTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final String THREE_PEERS = "#Peer Information;127.0.0.1@1000@2000@0@0;127.0.0.1@1001@2001@1@0;"
            + "127.0.0.1@1002@2002@2@0";

    @Test
    void answersEveryRankWithAllPeersInRankOrderAndIgnoresProbes() throws Exception {
        JobSecret secret = JobSecret.generate();
        try (NiodevRendezvous rendezvous = NiodevRendezvous.start(LOOPBACK, 0, 3, secret)) {
            // A port probe: connect and close without data.
            new Socket(LOOPBACK, rendezvous.port()).close();
            for (CompletableFuture<String> answer : registerAll(rendezvous, secret, 2, 0, 1)) {
                assertEquals(THREE_PEERS, answer.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void strangersAreDroppedWhileTheRanksFormTheWorld() throws Exception {
        JobSecret secret = JobSecret.generate();
        try (NiodevRendezvous rendezvous = NiodevRendezvous.start(LOOPBACK, 0, 3, secret);
             Socket idle = new Socket(LOOPBACK, rendezvous.port());
             Socket garbage = new Socket(LOOPBACK, rendezvous.port());
             Socket forged = new Socket(LOOPBACK, rendezvous.port());
             Socket niodevSpeaker = new Socket(LOOPBACK, rendezvous.port())) {
            byte[] noise = new byte[64];
            new Random(1).nextBytes(noise);
            garbage.getOutputStream().write(noise);
            // Rank 0 with ports of the attacker's choosing, made with a secret that is not the job's.
            forged.getOutputStream().write(RendezvousProtocol.registration(JobSecret.generate(),
                    nonce(forged), new Registration(0, 6666, 6667)));
            niodevSpeaker.getOutputStream().write(niodevRegistration(0));
            long start = System.nanoTime();
            for (CompletableFuture<String> answer : registerAll(rendezvous, secret, 0, 1, 2)) {
                assertEquals(THREE_PEERS, answer.get(30, TimeUnit.SECONDS));
            }
            // The idle connection is still within its read timeout: nobody waited for it.
            assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(
                    NiodevRendezvous.REGISTRATION_TIMEOUT_MILLIS));
            // Strangers get the challenge (the forged one has read it already) and then the end: no answer.
            assertEquals(RendezvousProtocol.CHALLENGE_BYTES, garbage.getInputStream().readAllBytes().length);
            assertEquals(0, forged.getInputStream().readAllBytes().length);
            niodevSpeaker.shutdownOutput();
            assertEquals(RendezvousProtocol.CHALLENGE_BYTES, niodevSpeaker.getInputStream().readAllBytes().length);
        }
    }

    /**
     * An eavesdropper replays rank 0's registration on a connection of its own: made for another
     * nonce, it is dropped, and the world forms from the genuine registrations.
     */
    @Test
    void aReplayedRegistrationIsDropped() throws Exception {
        JobSecret secret = JobSecret.generate();
        try (NiodevRendezvous rendezvous = NiodevRendezvous.start(LOOPBACK, 0, 2, secret);
             Socket rank0 = new Socket(LOOPBACK, rendezvous.port());
             Socket replay = new Socket(LOOPBACK, rendezvous.port())) {
            byte[] nonce = nonce(rank0);
            byte[] registration = RendezvousProtocol.registration(secret, nonce, new Registration(0, 1000, 2000));
            rank0.getOutputStream().write(registration);
            nonce(replay);
            replay.getOutputStream().write(registration);
            assertEquals(-1, replay.getInputStream().read(), "the replay gets no answer");
            List<CompletableFuture<String>> rank1 = registerAll(rendezvous, secret, 1);
            String twoPeers = "#Peer Information;127.0.0.1@1000@2000@0@0;127.0.0.1@1001@2001@1@0";
            assertEquals(twoPeers, rank1.get(0).get(30, TimeUnit.SECONDS));
            assertEquals(twoPeers, RendezvousProtocol.readAnswer(new DataInputStream(rank0.getInputStream()), secret,
                    nonce, "test"));
        }
    }

    @Test
    void aRankThatRegistersTwiceFailsTheRendezvousForEveryone() throws Exception {
        JobSecret secret = JobSecret.generate();
        try (NiodevRendezvous rendezvous = NiodevRendezvous.start(LOOPBACK, 0, 3, secret)) {
            List<CompletableFuture<String>> answers = registerAll(rendezvous, secret, 1, 1);
            for (CompletableFuture<String> answer : answers) {
                Exception e = assertThrows(Exception.class, () -> answer.get(30, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof IOException, e.toString());
            }
        }
    }

    @Test
    void anAnswerWithoutTheSecretIsRefused() throws Exception {
        JobSecret secret = JobSecret.generate();
        try (NiodevRendezvous impostor = NiodevRendezvous.start(LOOPBACK, 0, 1, JobSecret.generate());
             Socket socket = new Socket(LOOPBACK, impostor.port())) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] nonce = RendezvousProtocol.nonceOf(in.readNBytes(RendezvousProtocol.CHALLENGE_BYTES), "test");
            // The impostor's own secret accepts only its own registrations: this one is dropped.
            socket.getOutputStream().write(RendezvousProtocol.registration(secret, nonce, new Registration(0, 1, 2)));
            assertEquals(-1, in.read());
        }
        JobSecret impostorSecret = JobSecret.generate();
        try (NiodevRendezvous impostor = NiodevRendezvous.start(LOOPBACK, 0, 1, impostorSecret);
             Socket socket = new Socket(LOOPBACK, impostor.port())) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] nonce = RendezvousProtocol.nonceOf(in.readNBytes(RendezvousProtocol.CHALLENGE_BYTES), "test");
            socket.getOutputStream().write(RendezvousProtocol.registration(impostorSecret, nonce,
                    new Registration(0, 1, 2)));
            IOException e = assertThrows(IOException.class, () -> RendezvousProtocol.readAnswer(in, secret, nonce,
                    "the impostor"));
            assertEquals("the answer of the rendezvous at the impostor does not carry this job's secret", e.getMessage());
        }
    }

    /** Registers {@code ranks} concurrently, rank r with read port 1000+r and write port 2000+r. */
    private static List<CompletableFuture<String>> registerAll(NiodevRendezvous rendezvous, JobSecret secret,
                                                               int... ranks) {
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int rank : ranks) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try (Socket socket = new Socket(LOOPBACK, rendezvous.port())) {
                    byte[] nonce = nonce(socket);
                    socket.getOutputStream().write(RendezvousProtocol.registration(secret, nonce,
                            new Registration(rank, 1000 + rank, 2000 + rank)));
                    return RendezvousProtocol.readAnswer(new DataInputStream(socket.getInputStream()), secret, nonce,
                            "test");
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }));
        }
        return answers;
    }

    private static byte[] nonce(Socket socket) throws IOException {
        byte[] nonce = RendezvousProtocol.nonceOf(socket.getInputStream().readNBytes(RendezvousProtocol.CHALLENGE_BYTES), "test");
        assertFalse(nonce == null, "the rendezvous opens with its challenge");
        return nonce;
    }

    /** What niodev itself would send to its server: MPJ's unauthenticated registration. */
    private static byte[] niodevRegistration(int rank) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF("Sending Info");
        out.writeInt(7000);
        out.writeInt(7001);
        out.writeInt(rank);
        return bytes.toByteArray();
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
