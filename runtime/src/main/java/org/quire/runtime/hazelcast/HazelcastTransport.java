package org.quire.runtime.hazelcast;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageTransport;

import java.nio.ByteBuffer;

/**
 * Point-to-point messages through Hazelcast queues: each rank owns the queue {@code inbox-<rank>}
 * on the job's member; a send is a put on the destination's queue, a receive a blocking take on
 * its own. Queues keep what is put before the receiver first looks (no start-up handshake is
 * needed) and, unlike topic listeners, never drop under load. Each element is
 * {@code int source, int tag, payload}.
 */
final class HazelcastTransport implements MessageTransport {

    private static final int HEADER_BYTES = 2 * Integer.BYTES;

    private final HazelcastInstance instance;
    private final int rank;
    private final int size;
    private final IQueue<byte[]> inbox;

    HazelcastTransport(HazelcastInstance instance, int rank, int size) {
        this.instance = instance;
        this.rank = rank;
        this.size = size;
        this.inbox = instance.getQueue(inboxName(rank));
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
        byte[] element = ByteBuffer.allocate(HEADER_BYTES + payload.length).putInt(rank).putInt(tag).put(payload).array();
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
        byte[] element;
        try {
            element = inbox.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommunicationException("rank " + rank + " was interrupted waiting for a message", e);
        } catch (RuntimeException e) {
            throw new CommunicationException("rank " + rank + " lost its Hazelcast inbox: " + e.getMessage(), e);
        }
        ByteBuffer in = ByteBuffer.wrap(element);
        int source = in.getInt();
        int tag = in.getInt();
        byte[] payload = new byte[in.remaining()];
        in.get(payload);
        return new Message(source, tag, payload);
    }

    @Override
    public void close() {
        instance.shutdown();
    }
}
