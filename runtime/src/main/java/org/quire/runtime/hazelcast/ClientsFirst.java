package org.quire.runtime.hazelcast;

import com.hazelcast.client.Client;
import com.hazelcast.core.HazelcastInstance;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * How a rank that hosts the job's Hazelcast member (rank 0 under Slurm) lets its clients, the
 * other ranks, leave first. The closing barrier ends on the host once it has put the last barrier
 * message into each client's queue, which may be before the clients have taken it: a member shut
 * down then cuts the clients off in the middle of their last take. So the host waits until no
 * client is connected any more (a rank's client disconnects when it shuts down after the barrier,
 * or when its process ends). The wait is bounded: a client still connected after
 * {@value #WAIT_MILLIS} ms is named in one line and the member is shut down anyway, so a client
 * that never disconnects (a stopped process, say) cannot keep the host from exiting.
 *
 * <p>Each rank's client carries the label {@link #label}, so that line names ranks. Tests shorten
 * the bound with the system property {@value #WAIT_PROPERTY} (milliseconds).
 */
final class ClientsFirst {

    static final String WAIT_PROPERTY = "quire.hazelcast.clientsLeaveMillis";
    /** A client shuts down within a second; this leaves room for a loaded node. */
    private static final long WAIT_MILLIS = 60_000;
    private static final long POLL_MILLIS = 10;
    private static final String LABEL_PREFIX = "quire-rank-";

    private ClientsFirst() {
    }

    /** The label of rank {@code rank}'s client. */
    static String label(int rank) {
        return LABEL_PREFIX + rank;
    }

    /**
     * Waits until no client is connected to {@code member}, at most the bound; says in one line on
     * stderr which clients were still connected when it ran out. An interrupt ends the wait early.
     */
    static void await(HazelcastInstance member, int hostRank, String jobId) {
        long waitMillis = Long.getLong(WAIT_PROPERTY, WAIT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        Collection<Client> connected = member.getClientService().getConnectedClients();
        try {
            while (!connected.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(POLL_MILLIS);
                connected = member.getClientService().getConnectedClients();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!connected.isEmpty()) {
            System.err.println("quire: rank " + hostRank + " shuts down the Hazelcast member of job " + jobId
                    + " although " + connected.stream().map(ClientsFirst::describe).sorted()
                    .collect(Collectors.joining(", ")) + (connected.size() == 1 ? " is" : " are")
                    + " still connected " + waitMillis + " ms after the closing barrier; "
                    + (connected.size() == 1 ? "it" : "they") + " may fail to leave");
        }
    }

    private static String describe(Client client) {
        return client.getLabels().stream().filter(l -> l.startsWith(LABEL_PREFIX)).findFirst()
                .map(l -> "rank " + l.substring(LABEL_PREFIX.length()))
                .orElse("a client at " + client.getSocketAddress() + " that is no rank");
    }
}
