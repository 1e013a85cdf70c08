package org.quire.runtime.hazelcast;

import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Message;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One message as it sits in a rank's Hazelcast inbox queue, authenticated with the job secret:
 * <pre>
 *   0: int source rank
 *   4: int tag
 *   8: long sequence   number of earlier messages from source to this destination
 *  16: byte[n] payload
 *  16+n: byte[32] HMAC(secret, "quire hazelcast message", destination, source, tag, sequence, payload)
 * </pre>
 * The destination is in the MAC although not in the element, so a message cannot be moved to
 * another rank's inbox; the sequence number makes a copy of an earlier message detectable.
 */
final class InboxElement {

    private static final int HEADER_BYTES = 2 * Integer.BYTES + Long.BYTES;
    private static final String PURPOSE = "quire hazelcast message";

    /** A message that passed {@link #verify}, with its sequence number. */
    record Verified(Message message, long sequence) {
    }

    private InboxElement() {
    }

    static byte[] encode(JobSecret secret, int destination, int source, int tag, long sequence, byte[] payload) {
        byte[] header = header(source, tag, sequence);
        return ByteBuffer.allocate(HEADER_BYTES + payload.length + JobSecret.BYTES).put(header).put(payload)
                .put(secret.mac(PURPOSE, destinationBytes(destination), header, payload)).array();
    }

    /** The message in {@code element} when it was made with {@code secret} for {@code destination}, else null. */
    static Verified verify(JobSecret secret, int destination, byte[] element) {
        if (element == null || element.length < HEADER_BYTES + JobSecret.BYTES) {
            return null;
        }
        byte[] header = Arrays.copyOfRange(element, 0, HEADER_BYTES);
        byte[] payload = Arrays.copyOfRange(element, HEADER_BYTES, element.length - JobSecret.BYTES);
        byte[] mac = Arrays.copyOfRange(element, element.length - JobSecret.BYTES, element.length);
        if (!secret.verify(mac, PURPOSE, destinationBytes(destination), header, payload)) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(header);
        int source = in.getInt();
        int tag = in.getInt();
        return new Verified(new Message(source, tag, payload), in.getLong());
    }

    private static byte[] header(int source, int tag, long sequence) {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(source).putInt(tag).putLong(sequence).array();
    }

    private static byte[] destinationBytes(int destination) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(destination).array();
    }
}
