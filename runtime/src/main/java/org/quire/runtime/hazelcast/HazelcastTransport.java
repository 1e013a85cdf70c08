package org.quire.runtime.hazelcast;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Envelope;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageTransport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;


/**
 * Point-to-point messages through Hazelcast queues: each rank owns the queue {@code inbox-<rank>}
 * on the job's member; a send is a put on the destination's queue, a receive a blocking take on
 * its own. Queues keep what is put before the receiver first looks (no start-up handshake is
 * needed) and, unlike topic listeners, never drop under load.
 *
 * <p>Each element is an {@link InboxElement}: authenticated with the job secret and numbered per
 * source. An element without the secret, or numbered below the next one due (a replayed copy),
 * never reaches the caller: it is dropped and reported in one line. One numbered above (a
 * message of the job was lost) fails the receive with a {@link CommunicationException} naming the
 * lost message, which ends the rank, so the job fails fast instead of waiting forever. Open-source Hazelcast lets any client that
 * knows the cluster name put into any queue; this is what keeps such a client's messages out.
 * Such a client may also put other objects than {@code byte[]}: they are dropped and reported the
 * same way, and an object whose decoding {@link HazelcastSettings} forbids (any Java-serialized
 * one) is reported without being decoded.
 */
final class HazelcastTransport implements MessageTransport {

    private final HazelcastInstance instance;
    private final int rank;
    private final int size;
    private final JobSecret secret;
    /** The job id as UTF-8: part of every element's MAC. */
    private final byte[] world;
    /** Elements as Hazelcast decodes them: {@code byte[]} unless a stranger put something else. */
    private final IQueue<Object> inbox;
    /** Per destination: messages sent to it so far. */
    private final long[] sent;
    /** Per source: messages received from it so far. */
    private final long[] received;

    HazelcastTransport(HazelcastInstance instance, int rank, int size, JobSecret secret, String worldId) {
        this.instance = instance;
        this.world = worldId.getBytes(StandardCharsets.UTF_8);
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
    public void send(int destination, Envelope envelope, ByteBuffer payload) {
        byte[] bytes = new byte[payload.remaining()];
        payload.get(payload.position(), bytes);
        byte[] element = InboxElement.encode(secret, world, destination, rank, envelope, sent[destination]++, bytes);
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
        Message next;
        do {
            next = accepted(nextBytes(true));
        } while (next == null);
        return next;
    }

    @Override
    public Message pollNext() {
        while (true) {
            byte[] element = nextBytes(false);
            if (element == null) {
                return null;
            }
            Message next = accepted(element);
            if (next != null) {
                return next;
            }
        }
    }

    /** The message in {@code element} when it is the next one due from its source; null (reported) when dropped. */
    private Message accepted(byte[] element) {
        InboxElement.Verified verified = InboxElement.verify(secret, world, rank, element);
        if (verified == null) {
            report("it does not carry this job's secret (" + element.length + " bytes)");
            return null;
        }
        int source = verified.message().source();
        if (source < 0 || source >= size) {
            report("it names rank " + source + " as its source; no such rank exists");
            return null;
        }
        long sequence = verified.sequence();
        if (sequence < received[source]) {
            report("rank " + source + "'s message number " + sequence + " arrived where number " + received[source]
                    + " was due (a copy of an earlier message)");
            return null;
        }
        if (sequence > received[source]) {
            // Made with the secret but later than due: the job's own message was lost in between.
            throw new CommunicationException("rank " + rank + ": message " + received[source] + " from rank "
                    + source + " was lost (message " + sequence + " arrived in its place)");
        }
        received[source]++;
        return verified.message();
    }

    /**
     * The next element that is a {@code byte[]}, waiting for one when {@code wait}, else null when the inbox is
     * empty; anything else is dropped and reported.
     */
    private byte[] nextBytes(boolean wait) {
        while (true) {
            Object element;
            try {
                element = wait ? inbox.take() : inbox.poll();
            } catch (HazelcastSerializationException e) {
                report("it is an object Quire does not decode (" + e.getMessage() + ")");
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommunicationException("rank " + rank + " was interrupted waiting for a message", e);
            } catch (RuntimeException e) {
                throw new CommunicationException("rank " + rank + " lost its Hazelcast inbox: " + e.getMessage(), e);
            }
            if (element instanceof byte[] bytes) {
                return bytes;
            }
            if (element == null && !wait) {
                return null;
            }
            report("it is " + (element == null ? "null" : "a " + element.getClass().getName()) + ", not a byte[]");
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
