package org.quire.runtime.mpj;

import org.quire.runtime.JobSecret;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Quire's own port exchange between each rank's {@link NiodevRelay} and the job's
 * {@link NiodevRendezvous}: niodev's registration, authenticated with the job secret in both
 * directions and bound to a fresh nonce, so that it can be neither forged nor replayed.
 * <pre>
 *   rendezvous -> rank   challenge     byte[8] "QUIRERV1", byte[16] nonce
 *   rank -> rendezvous   registration  int rank, int readPort, int writePort,
 *                                      byte[32] HMAC(secret, "quire niodev registration", nonce, rank, readPort, writePort)
 *   rendezvous -> rank   answer        int length, byte[length] UTF-8 peer information,
 *                                      byte[32] HMAC(secret, "quire niodev peers", nonce, peer information)
 * </pre>
 * Integers are big-endian. The peer information is what niodev expects from its server:
 * {@code #Peer Information;ip@readPort@writePort@rank@0;...} for ranks 0..N-1.
 */
final class RendezvousProtocol {

    static final byte[] MAGIC = "QUIRERV1".getBytes(StandardCharsets.US_ASCII);
    static final int NONCE_BYTES = 16;
    static final int CHALLENGE_BYTES = MAGIC.length + NONCE_BYTES;
    static final int REGISTRATION_BYTES = 3 * Integer.BYTES + JobSecret.BYTES;
    /** Far above N ranks' peer information (about 40 bytes each); bounds what a rank reads. */
    static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;
    private static final String REGISTRATION = "quire niodev registration";
    private static final String ANSWER = "quire niodev peers";

    /** One rank's ports as niodev registered them. */
    record Registration(int rank, int readPort, int writePort) {
    }

    private RendezvousProtocol() {
    }

    static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        new SecureRandom().nextBytes(nonce);
        return nonce;
    }

    static byte[] challenge(byte[] nonce) {
        return ByteBuffer.allocate(CHALLENGE_BYTES).put(MAGIC).put(nonce).array();
    }

    /** The nonce of a challenge, or null when {@code challenge} does not start with {@link #MAGIC}. */
    static byte[] nonceOf(byte[] challenge) {
        if (!Arrays.equals(challenge, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return null;
        }
        return Arrays.copyOfRange(challenge, MAGIC.length, CHALLENGE_BYTES);
    }

    static byte[] registration(JobSecret secret, byte[] nonce, Registration r) {
        byte[] fields = fields(r);
        return ByteBuffer.allocate(REGISTRATION_BYTES).put(fields).put(secret.mac(REGISTRATION, nonce, fields)).array();
    }

    /** The registration in {@code bytes}, or null when its MAC was not made with {@code secret} for {@code nonce}. */
    static Registration verifiedRegistration(JobSecret secret, byte[] nonce, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        Registration r = new Registration(in.getInt(), in.getInt(), in.getInt());
        byte[] mac = new byte[JobSecret.BYTES];
        in.get(mac);
        return secret.verify(mac, REGISTRATION, nonce, fields(r)) ? r : null;
    }

    static void writeAnswer(DataOutputStream out, JobSecret secret, byte[] nonce, String peers) throws IOException {
        byte[] text = peers.getBytes(StandardCharsets.UTF_8);
        out.writeInt(text.length);
        out.write(text);
        out.write(secret.mac(ANSWER, nonce, text));
        out.flush();
    }

    /** Reads an answer; a wrong length or MAC is an {@link IOException} naming {@code from}. */
    static String readAnswer(DataInputStream in, JobSecret secret, byte[] nonce, String from) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_ANSWER_BYTES) {
            throw new IOException("the rendezvous at " + from + " announced an answer of " + length + " bytes; expected"
                    + " 0.." + MAX_ANSWER_BYTES);
        }
        byte[] text = in.readNBytes(length);
        byte[] mac = in.readNBytes(JobSecret.BYTES);
        if (text.length != length || mac.length != JobSecret.BYTES) {
            throw new IOException("the rendezvous at " + from + " closed the connection in the middle of its answer");
        }
        if (!secret.verify(mac, ANSWER, nonce, text)) {
            throw new IOException("the answer of the rendezvous at " + from + " does not carry this job's secret");
        }
        return new String(text, StandardCharsets.UTF_8);
    }

    private static byte[] fields(Registration r) {
        return ByteBuffer.allocate(3 * Integer.BYTES).putInt(r.rank()).putInt(r.readPort()).putInt(r.writePort()).array();
    }
}
