package org.quire.runtime.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Envelope;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.PayloadKind;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An intruder that knows the cluster name (an eavesdropper, say) puts into a rank's inbox: its
 * forged, moved and replayed elements are dropped and reported, and only the job's own message
 * reaches the rank.
 */
class HazelcastTransportTest {

    private static final JobSecret SECRET = JobSecret.generate();
    private static final String WORLD = "slurm-7.1";
    private static final byte[] WORLD_BYTES = WORLD.getBytes(StandardCharsets.UTF_8);
    private static final Envelope TAG_5 = new Envelope(0, 5, PayloadKind.BYTES);
    private static HazelcastInstance member;
    private static HazelcastInstance intruder;

    @BeforeAll
    static void startMemberAndIntruder() {
        HazelcastSettings.silenceLogging();
        String cluster = HazelcastSettings.clusterName(SECRET, WORLD);
        member = Hazelcast.newHazelcastInstance(HazelcastSettings.member(cluster, "127.0.0.1", 5801, true));
        Address address = member.getCluster().getLocalMember().getAddress();
        ClientConfig client = HazelcastSettings.client(cluster, address.getHost(), address.getPort());
        intruder = HazelcastClient.newHazelcastClient(client);
    }

    @AfterAll
    static void stop() {
        intruder.shutdown();
        member.shutdown();
    }

    @Test
    void onlyMessagesMadeWithTheSecretForThisRankInSequenceReachIt() {
        HazelcastTransport rank0 = new HazelcastTransport(member, 0, 2, SECRET, WORLD);
        HazelcastTransport rank1 = new HazelcastTransport(member, 1, 2, SECRET, WORLD);
        PrintStream stderr = System.err;
        ByteArrayOutputStream reports = new ByteArrayOutputStream();
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
        try {
            rank1.send(0, TAG_5, bytes("first"));
            byte[] genuine = (byte[]) member.getQueue("inbox-0").peek();
            assertEquals("first", text(rank0.takeNext()));
            var inbox = intruder.<byte[]>getQueue("inbox-0");
            inbox.add("anything an intruder likes, without the job's MAC".getBytes(StandardCharsets.UTF_8));
            inbox.add(InboxElement.encode(JobSecret.generate(), WORLD_BYTES, 0, 1, TAG_5, 1, "forged".getBytes(StandardCharsets.UTF_8)));
            inbox.add(genuine); // a replay of rank 1's first message
            inbox.add(InboxElement.encode(SECRET, WORLD_BYTES, 1, 1, TAG_5, 1, "meant for rank 1".getBytes(StandardCharsets.UTF_8)));
            // Rank 1's next message as another world sharing the secret (the next Slurm step) made it.
            inbox.add(InboxElement.encode(SECRET, "slurm-7.2".getBytes(StandardCharsets.UTF_8), 0, 1, TAG_5, 1,
                    "from another step".getBytes(StandardCharsets.UTF_8)));
            rank1.send(0, TAG_5, bytes("second"));
            Message next = rank0.takeNext();
            assertEquals(1, next.source());
            assertEquals(TAG_5, next.envelope());
            assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), next.payload());
        } finally {
            System.setErr(stderr);
        }
        String lines = reports.toString(StandardCharsets.UTF_8);
        assertEquals(5, lines.lines().count(), lines);
        assertTrue(lines.contains("quire: rank 0 dropped a message in its Hazelcast inbox: it does not carry this"
                + " job's secret (49 bytes)"), lines);
        assertTrue(lines.contains("quire: rank 0 dropped a message in its Hazelcast inbox: rank 1's message number 0"
                + " arrived where number 1 was due (a copy of an earlier message)"), lines);
    }

    /** What an attacker would put: a class on the ranks' class path whose {@code readObject} acts. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String marker;

        Gadget(Path marker) {
            this.marker = marker.toString();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            Files.writeString(Path.of(marker), "Gadget.readObject ran");
        }
    }

    /**
     * A client with the cluster name puts a serializable gadget and a string into a rank's inbox,
     * for a rank on the member (rank 0 under Slurm) and for a rank that is a client (under
     * {@code quire run}): both are dropped with a line each, the gadget without being decoded, and
     * the rank gets the job's next message.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void objectsOtherThanBytesAreDroppedAndNeverDeserialised(boolean rankIsMember, @TempDir Path dir) {
        Path marker = dir.resolve("gadget-ran");
        Address address = member.getCluster().getLocalMember().getAddress();
        HazelcastInstance rankInstance = rankIsMember ? member : HazelcastClient.newHazelcastClient(
                HazelcastSettings.client(HazelcastSettings.clusterName(SECRET, WORLD), address.getHost(),
                        address.getPort()));
        int rank = rankIsMember ? 3 : 4;
        HazelcastTransport receiver = new HazelcastTransport(rankInstance, rank, 5, SECRET, WORLD);
        HazelcastTransport sender = new HazelcastTransport(member, 1, 5, SECRET, WORLD);
        PrintStream stderr = System.err;
        ByteArrayOutputStream reports = new ByteArrayOutputStream();
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
        try {
            intruder.getQueue("inbox-" + rank).add(new Gadget(marker));
            intruder.getQueue("inbox-" + rank).add("not a byte[]");
            sender.send(rank, TAG_5, bytes("genuine"));
            assertEquals("genuine", text(receiver.takeNext()));
        } finally {
            System.setErr(stderr);
            if (!rankIsMember) {
                rankInstance.shutdown();
            }
        }
        String lines = reports.toString(StandardCharsets.UTF_8);
        assertFalse(Files.exists(marker), "the gadget's readObject ran in the rank's JVM");
        assertEquals(2, lines.lines().count(), lines);
        String prefix = "quire: rank " + rank + " dropped a message in its Hazelcast inbox: ";
        assertTrue(lines.startsWith(prefix + "it is an object Quire does not decode ("), lines);
        assertTrue(lines.contains(Gadget.class.getName()), lines);
        assertTrue(lines.contains(prefix + "it is a java.lang.String, not a byte[]"), lines);
    }

    @Test
    void worldsSharingASecretHaveDifferentClusterNames() {
        assertNotEquals(HazelcastSettings.clusterName(SECRET, "slurm-7.1"), HazelcastSettings.clusterName(SECRET, "slurm-7.2"));
    }

    @Test
    void aLostMessageFailsTheReceiveNamingIt() {
        HazelcastTransport rank2 = new HazelcastTransport(member, 2, 3, SECRET, WORLD);
        HazelcastTransport rank1 = new HazelcastTransport(member, 1, 3, SECRET, WORLD);
        rank1.send(2, TAG_5, bytes("lost"));
        member.getQueue("inbox-2").poll(); // as if Hazelcast had lost it
        rank1.send(2, TAG_5, bytes("after the loss"));
        CommunicationException lost = assertThrows(CommunicationException.class, rank2::takeNext);
        assertEquals("rank 2: message 0 from rank 1 was lost (message 1 arrived in its place)", lost.getMessage());
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(Message message) {
        return new String(message.payload(), StandardCharsets.UTF_8);
    }
}
