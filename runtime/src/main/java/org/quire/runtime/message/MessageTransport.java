package org.quire.runtime.message;

/**
 * Point-to-point delivery between the ranks of one world, the only thing an engine without
 * collectives of its own has to provide. Messages from one source to one destination arrive in
 * the order they were sent.
 */
public interface MessageTransport extends AutoCloseable {

    int rank();

    int size();

    /** Delivers {@code payload} (not retained) to {@code destination}'s inbox. */
    void send(int destination, int tag, byte[] payload);

    /** Waits for the next message in this rank's inbox, whatever its source and tag. */
    Message takeNext();

    @Override
    void close();
}
