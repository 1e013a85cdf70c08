package org.quire.runtime.message;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Hands out messages by (source, tag) although a transport delivers them in arrival order: a
 * fast rank's message for a later operation can arrive before the one this rank waits for, so
 * messages that do not match are kept, in order, until asked for.
 */
final class MatchingInbox {

    private record Key(int source, int tag) {
    }

    private final MessageTransport transport;
    private final Map<Key, ArrayDeque<byte[]>> early = new HashMap<>();

    MatchingInbox(MessageTransport transport) {
        this.transport = transport;
    }

    byte[] receive(int source, int tag) {
        Key wanted = new Key(source, tag);
        ArrayDeque<byte[]> kept = early.get(wanted);
        if (kept != null && !kept.isEmpty()) {
            return kept.poll();
        }
        while (true) {
            Message next = transport.takeNext();
            Key key = new Key(next.source(), next.tag());
            if (key.equals(wanted)) {
                return next.payload();
            }
            early.computeIfAbsent(key, k -> new ArrayDeque<>()).add(next.payload());
        }
    }
}
