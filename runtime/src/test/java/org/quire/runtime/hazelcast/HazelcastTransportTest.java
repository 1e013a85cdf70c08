package org.quire.runtime.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Message;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An intruder that knows the cluster name (an eavesdropper, say) puts into a rank's inbox: its
 * forged, moved and replayed elements are dropped and reported, and only the job's own message
 * reaches the rank.
 */
class HazelcastTransportTest {

    private static final JobSecret SECRET = JobSecret.generate();
    private static HazelcastInstance member;
    private static HazelcastInstance intruder;

    @BeforeAll
    static void startMemberAndIntruder() {
        HazelcastSettings.silenceLogging();
        String cluster = HazelcastSettings.clusterName(SECRET);
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
        HazelcastTransport rank0 = new HazelcastTransport(member, 0, 2, SECRET);
        HazelcastTransport rank1 = new HazelcastTransport(member, 1, 2, SECRET);
        PrintStream stderr = System.err;
        ByteArrayOutputStream reports = new ByteArrayOutputStream();
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
        try {
            rank1.send(0, 5, "first".getBytes(StandardCharsets.UTF_8));
            byte[] genuine = (byte[]) member.getQueue("inbox-0").peek();
            assertEquals("first", text(rank0.takeNext()));
            var inbox = intruder.<byte[]>getQueue("inbox-0");
            inbox.add("anything an intruder likes, without the job's MAC".getBytes(StandardCharsets.UTF_8));
            inbox.add(InboxElement.encode(JobSecret.generate(), 0, 1, 5, 1, "forged".getBytes(StandardCharsets.UTF_8)));
            inbox.add(genuine); // a replay of rank 1's first message
            inbox.add(InboxElement.encode(SECRET, 1, 1, 5, 1, "meant for rank 1".getBytes(StandardCharsets.UTF_8)));
            rank1.send(0, 5, "second".getBytes(StandardCharsets.UTF_8));
            Message next = rank0.takeNext();
            assertEquals(1, next.source());
            assertEquals(5, next.tag());
            assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), next.payload());
        } finally {
            System.setErr(stderr);
        }
        String lines = reports.toString(StandardCharsets.UTF_8);
        assertEquals(4, lines.lines().count(), lines);
        assertTrue(lines.contains("quire: rank 0 dropped a message in its Hazelcast inbox: it does not carry this"
                + " job's secret (49 bytes)"), lines);
        assertTrue(lines.contains("quire: rank 0 dropped a message in its Hazelcast inbox: rank 1's message number 0"
                + " arrived where number 1 was due (a copy of an earlier message)"), lines);
    }

    private static String text(Message message) {
        return new String(message.payload(), StandardCharsets.UTF_8);
    }
}
