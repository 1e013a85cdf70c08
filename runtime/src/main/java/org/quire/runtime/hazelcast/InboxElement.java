package org.quire.runtime.hazelcast;

import org.quire.runtime.CommunicationException;
import org.quire.runtime.JobSecret;
import org.quire.runtime.message.Envelope;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.PayloadKind;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One message as it sits in a rank's Hazelcast inbox queue, authenticated with the job secret for
 * one world (the job id, see {@link HazelcastSettings#clusterName}):
 * <pre>
 *   0: int source rank
 *   4: int context     the communicator's (0: the world, see MessageCommunicator)
 *   8: int tag
 *  12: byte kind       PayloadKind.code()
 *  13: long sequence   number of earlier messages from source to this destination
 *  21: byte[n] payload
 *  21+n: byte[32] HMAC(secret, "quire hazelcast message", world, destination, header, payload)
 * </pre>
 * The world (UTF-8 job id) and destination are in the MAC although not in the element, so a
 * message can be moved neither to another rank's inbox nor to another world sharing the secret
 * (another Slurm step, whose sequence numbers also start at 0); the sequence number makes a copy
 * of an earlier message of the same world detectable.
 */
final class InboxElement {

    private static final int HEADER_BYTES = 3 * Integer.BYTES + Byte.BYTES + Long.BYTES;
    private static final String PURPOSE = "quire hazelcast message";

    /** A message that passed {@link #verify}, with its sequence number. */
    record Verified(Message message, long sequence) {
    }

    private InboxElement() {
    }

    static byte[] encode(JobSecret secret, byte[] world, int destination, int source, Envelope envelope, long sequence,
                         byte[] payload) {
        byte[] header = header(source, envelope, sequence);
        return ByteBuffer.allocate(HEADER_BYTES + payload.length + JobSecret.BYTES).put(header).put(payload)
                .put(secret.mac(PURPOSE, world, destinationBytes(destination), header, payload)).array();
    }

    /**
     * The message in {@code element} when it was made with {@code secret} for {@code destination}
     * of {@code world}, else null.
     *
     * @throws CommunicationException when a message made with the secret names no payload kind
     */
    static Verified verify(JobSecret secret, byte[] world, int destination, byte[] element) {
        if (element == null || element.length < HEADER_BYTES + JobSecret.BYTES) {
            return null;
        }
        byte[] header = Arrays.copyOfRange(element, 0, HEADER_BYTES);
        byte[] payload = Arrays.copyOfRange(element, HEADER_BYTES, element.length - JobSecret.BYTES);
        byte[] mac = Arrays.copyOfRange(element, element.length - JobSecret.BYTES, element.length);
        if (!secret.verify(mac, PURPOSE, world, destinationBytes(destination), header, payload)) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(header);
        int source = in.getInt();
        int context = in.getInt();
        int tag = in.getInt();
        byte code = in.get();
        PayloadKind kind = PayloadKind.ofCode(code);
        if (kind == null) {
            throw new CommunicationException("rank " + destination + ": a message from rank " + source
                    + " names payload kind " + code + "; known kinds are 0 to 3 (a rank of another Quire version?)");
        }
        return new Verified(new Message(source, new Envelope(context, tag, kind), payload), in.getLong());
    }

    private static byte[] header(int source, Envelope envelope, long sequence) {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(source).putInt(envelope.context()).putInt(envelope.tag())
                .put(envelope.kind().code()).putLong(sequence).array();
    }

    private static byte[] destinationBytes(int destination) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(destination).array();
    }
}
