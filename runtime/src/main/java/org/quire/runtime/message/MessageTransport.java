package org.quire.runtime.message;

import java.nio.ByteBuffer;

/**
 * Point-to-point delivery between the ranks of one world, the only thing an engine without
 * collectives of its own has to provide. Messages from one source to one destination arrive in
 * the order they were sent.
 */
public interface MessageTransport extends AutoCloseable {

    int rank();

    int size();

    /**
     * Delivers the bytes between {@code payload}'s position and limit to {@code destination}'s
     * inbox. The buffer is neither retained nor moved: it may be reused when this returns.
     */
    void send(int destination, Envelope envelope, ByteBuffer payload);

    /** Waits for the next message in this rank's inbox, whatever its source and envelope. */
    Message takeNext();

    /** The next message in this rank's inbox if one has arrived, else null at once. */
    Message pollNext();

    @Override
    void close();
}
