package org.quire.runtime.hazelcast;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageTransport;


/**
 * Point-to-point messages through Hazelcast queues: each rank owns the queue {@code inbox-<rank>}
 * on the job's member; a send is a put on the destination's queue, a receive a blocking take on
 * its own. Queues keep what is put before the receiver first looks (no start-up handshake is
 * needed) and, unlike topic listeners, never drop under load.
 *
 * <p>Each element is an {@link InboxElement}: authenticated with the job secret and numbered per
 * source. An element without the secret, or out of sequence (a replayed copy), never reaches the
 * caller: it is dropped and reported in one line. Open-source Hazelcast lets any client that
 * knows the cluster name put into any queue; this is what keeps such a client's messages out.
 */
final class HazelcastTransport implements MessageTransport {

    private final HazelcastInstance instance;
    private final int rank;
    private final int size;
    private final JobSecret secret;
    private final IQueue<byte[]> inbox;
    /** Per destination: messages sent to it so far. */
    private final long[] sent;
    /** Per source: messages received from it so far. */
    private final long[] received;

    HazelcastTransport(HazelcastInstance instance, int rank, int size, JobSecret secret) {
        this.instance = instance;
        this.rank = rank;
        this.size = size;
        this.secret = secret;
        this.inbox = instance.getQueue(inboxName(rank));
        this.sent = new long[size];
        this.received = new long[size];
    }

    private static String inboxName(int rank) {
        return "inbox-" + rank;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void send(int destination, int tag, byte[] payload) {
        byte[] element = InboxElement.encode(secret, destination, rank, tag, sent[destination]++, payload);
        try {
            instance.<byte[]>getQueue(inboxName(destination)).put(element);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommunicationException("rank " + rank + " was interrupted sending to rank " + destination, e);
        } catch (RuntimeException e) {
            throw new CommunicationException("rank " + rank + " could not send to rank " + destination
                    + " through Hazelcast: " + e.getMessage(), e);
        }
    }

    @Override
    public Message takeNext() {
        while (true) {
            byte[] element = take();
            InboxElement.Verified verified = InboxElement.verify(secret, rank, element);
            if (verified == null) {
                report("it does not carry this job's secret (" + (element == null ? "null" : element.length + " bytes")
                        + ")");
                continue;
            }
            int source = verified.message().source();
            if (source < 0 || source >= size || verified.sequence() != received[source]) {
                report("rank " + source + "'s message number " + verified.sequence() + " arrived where "
                        + (source < 0 || source >= size ? "no such rank exists" : "number " + received[source]
                        + " was due (a copy of an earlier message)"));
                continue;
            }
            received[source]++;
            return verified.message();
        }
    }

    private byte[] take() {
        try {
            return inbox.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommunicationException("rank " + rank + " was interrupted waiting for a message", e);
        } catch (RuntimeException e) {
            throw new CommunicationException("rank " + rank + " lost its Hazelcast inbox: " + e.getMessage(), e);
        }
    }

    private void report(String why) {
        System.err.println("quire: rank " + rank + " dropped a message in its Hazelcast inbox: " + why);
    }

    @Override
    public void close() {
        instance.shutdown();
    }
}
