package org.quire.runtime.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Envelope;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageCommunicator;
import org.quire.runtime.message.MessageTransport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leaving a Hazelcast world as under Slurm, rank 0 hosting the member and the other ranks its
 * clients, each rank on a thread of its own.
 */
class HazelcastLeaveTest {

    private static final JobSecret SECRET = JobSecret.generate();
    private static final int SIZE = 4;
    /** Longer than a member needs to shut down after the barrier's last put. */
    private static final long LATE_MILLIS = 1_000;
    private static final long RECONNECT_MILLIS = 5_000;

    @BeforeAll
    static void quietHazelcast() {
        HazelcastSettings.silenceLogging();
    }

    /**
     * Ranks 1 to 3 come to take their last barrier message only after rank 0 has put it (as ranks
     * whose thread is descheduled there on a loaded node): each still leaves without an error, since
     * rank 0 keeps the member it hosts until they have disconnected, and then shuts it down.
     */
    @Test
    void clientsThatTakeTheirLastBarrierMessageLateStillLeave() throws Exception {
        String job = "slurm-late-takers";
        HazelcastInstance member = Hazelcast.newHazelcastInstance(HazelcastSettings.member(
                HazelcastSettings.clusterName(SECRET, job), "127.0.0.1", 5821, true));
        List<MessageCommunicator> worlds = new ArrayList<>();
        worlds.add(new MessageCommunicator(new HazelcastTransport(member, 0, SIZE, SECRET, job)));
        for (int rank = 1; rank < SIZE; rank++) {
            worlds.add(new MessageCommunicator(new LateTaker(new HazelcastTransport(client(member, job, rank), rank,
                    SIZE, SECRET, job))));
        }
        ExecutorService ranks = Executors.newFixedThreadPool(SIZE);
        try {
            List<Future<?>> left = new ArrayList<>();
            for (int rank = 0; rank < SIZE; rank++) {
                MessageCommunicator world = worlds.get(rank);
                left.add(ranks.submit(() -> HazelcastBootstrap.leave(world, world.rank() == 0 ? member : null, job)));
            }
            for (Future<?> rank : left) {
                rank.get(30, TimeUnit.SECONDS); // a rank that lost its inbox throws here
            }
        } finally {
            ranks.shutdownNow();
        }
        assertFalse(member.getLifecycleService().isRunning(), "rank 0 left its member running");
    }

    /**
     * A client that never disconnects (here one labelled as rank 1 that is not in the world) holds
     * the host only for the bound: then one line names it and the member is shut down.
     */
    @Test
    void aClientThatNeverDisconnectsIsNamedAfterTheBoundAndTheMemberShutDown() {
        String job = "slurm-lingering-client";
        HazelcastInstance member = Hazelcast.newHazelcastInstance(HazelcastSettings.member(
                HazelcastSettings.clusterName(SECRET, job), "127.0.0.1", 5831, true));
        HazelcastInstance lingering = client(member, job, 1);
        PrintStream stderr = System.err;
        ByteArrayOutputStream reports = new ByteArrayOutputStream();
        System.setErr(new PrintStream(reports, true, StandardCharsets.UTF_8));
        System.setProperty(ClientsFirst.WAIT_PROPERTY, "500");
        long start = System.nanoTime();
        try {
            HazelcastBootstrap.leave(new MessageCommunicator(new HazelcastTransport(member, 0, 1, SECRET, job)), member,
                    job);
        } finally {
            System.clearProperty(ClientsFirst.WAIT_PROPERTY);
            System.setErr(stderr);
            lingering.shutdown();
        }
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis >= 500 && tookMillis < 10_000, tookMillis + " ms");
        assertFalse(member.getLifecycleService().isRunning(), "rank 0 left its member running");
        assertEquals("quire: rank 0 shuts down the Hazelcast member of job slurm-lingering-client although rank 1"
                + " is still connected 500 ms after the closing barrier; it may fail to leave",
                reports.toString(StandardCharsets.UTF_8).strip());
    }

    /**
     * Rank {@code rank}'s client of {@code member}, as {@link HazelcastBootstrap} makes it but giving
     * up on a member that is gone after {@value #RECONNECT_MILLIS} ms instead of a minute, so that
     * a take the member's shutdown cut off fails within the test's wait.
     */
    private static HazelcastInstance client(HazelcastInstance member, String job, int rank) {
        Address address = member.getCluster().getLocalMember().getAddress();
        ClientConfig config = HazelcastSettings.client(HazelcastSettings.clusterName(SECRET, job), address.getHost(),
                address.getPort()).addLabel(ClientsFirst.label(rank));
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(RECONNECT_MILLIS);
        return HazelcastClient.newHazelcastClient(config);
    }

    /** A rank's transport whose every take starts {@value #LATE_MILLIS} ms late. */
    private record LateTaker(MessageTransport transport) implements MessageTransport {

        @Override
        public int rank() {
            return transport.rank();
        }

        @Override
        public int size() {
            return transport.size();
        }

        @Override
        public void send(int destination, Envelope envelope, ByteBuffer payload) {
            transport.send(destination, envelope, payload);
        }

        @Override
        public Message takeNext() {
            try {
                Thread.sleep(LATE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return transport.takeNext();
        }

        @Override
        public Message pollNext() {
            return transport.pollNext();
        }

        @Override
        public void close() {
            transport.close();
        }
    }
}
