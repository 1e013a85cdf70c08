package org.quire.runtime.local;

import org.quire.runtime.CommunicationException;
import org.quire.runtime.message.Envelope;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageTransport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;

/** One rank's end of an in-JVM world: an inbox queue per rank, shared by all ranks' transports. */
final class LocalTransport implements MessageTransport {

    private final int rank;
    private final List<BlockingQueue<Message>> inboxes;

    LocalTransport(int rank, List<BlockingQueue<Message>> inboxes) {
        this.rank = rank;
        this.inboxes = inboxes;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return inboxes.size();
    }

    @Override
    public void send(int destination, Envelope envelope, ByteBuffer payload) {
        // The one copy: the sender may reuse its buffer as soon as send returns.
        byte[] copy = new byte[payload.remaining()];
        payload.get(payload.position(), copy);
        inboxes.get(destination).add(new Message(rank, envelope, copy));
    }

    @Override
    public Message takeNext() {
        try {
            return inboxes.get(rank).take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommunicationException("rank " + rank + " was interrupted while waiting for a message", e);
        }
    }

    @Override
    public Message pollNext() {
        return inboxes.get(rank).poll();
    }

    @Override
    public void close() {
        // Nothing to release: the queues belong to the world.
    }
}
