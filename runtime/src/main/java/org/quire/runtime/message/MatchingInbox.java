package org.quire.runtime.message;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Hands out messages by (source, context, tag) although a transport delivers them in arrival
 * order: a fast rank's message for a later operation can arrive before the one this rank waits
 * for. Receives are posted first and filled in the order they were posted as their messages
 * arrive; a message nobody has asked for yet is kept, in order, until a receive is posted for it.
 * Holds: a key never has both kept messages and unfilled receives.
 */
final class MatchingInbox {

    private record Key(int source, int context, int tag) {
    }

    /** A receive waiting for its message. */
    static final class Posted {
        private Message message;

        boolean filled() {
            return message != null;
        }
    }

    private final MessageTransport transport;
    private final Map<Key, ArrayDeque<Message>> kept = new HashMap<>();
    private final Map<Key, ArrayDeque<Posted>> waiting = new HashMap<>();

    MatchingInbox(MessageTransport transport) {
        this.transport = transport;
    }

    /** Posts a receive for the next message from world rank {@code source} with this context and tag. */
    Posted post(int source, int context, int tag) {
        Key key = new Key(source, context, tag);
        Posted posted = new Posted();
        ArrayDeque<Message> early = kept.get(key);
        if (early != null && !early.isEmpty()) {
            posted.message = early.poll();
        } else {
            waiting.computeIfAbsent(key, k -> new ArrayDeque<>()).add(posted);
        }
        return posted;
    }

    /** Waits until {@code posted} is filled, taking in whatever arrives meanwhile. */
    Message await(Posted posted) {
        while (!posted.filled()) {
            takeIn(transport.takeNext());
        }
        return posted.message;
    }

    /** Takes in what has arrived without waiting; true when {@code posted} is filled. */
    boolean test(Posted posted) {
        while (!posted.filled()) {
            Message next = transport.pollNext();
            if (next == null) {
                return false;
            }
            takeIn(next);
        }
        return true;
    }

    /** Waits for the next message from world rank {@code source} with this context and tag. */
    Message receive(int source, int context, int tag) {
        return await(post(source, context, tag));
    }

    private void takeIn(Message message) {
        Envelope envelope = message.envelope();
        Key key = new Key(message.source(), envelope.context(), envelope.tag());
        ArrayDeque<Posted> receivers = waiting.get(key);
        if (receivers != null && !receivers.isEmpty()) {
            receivers.poll().message = message;
        } else {
            kept.computeIfAbsent(key, k -> new ArrayDeque<>()).add(message);
        }
    }
}
