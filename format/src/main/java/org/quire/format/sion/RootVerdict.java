package org.quire.format.sion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What rank 0 scatters after a step only it performs (planning a write, reading metadata): either
 * the rank's payload or the reason rank 0 failed, so that every rank stops instead of waiting.
 * Wire form: one status byte (1 = payload follows, 0 = UTF-8 reason follows), then the bytes.
 */
final class RootVerdict {

    private static final byte PAYLOAD = 1;
    private static final byte FAILURE = 0;

    private RootVerdict() {
    }

    static byte[] payload(byte[] payload) {
        return prefixed(PAYLOAD, payload);
    }

    static byte[] failure(Throwable failure) {
        return prefixed(FAILURE, String.valueOf(failure).getBytes(StandardCharsets.UTF_8));
    }

    /** Every rank's part when rank 0 failed. */
    static byte[][] failureForAll(Throwable failure, int ranks) {
        byte[][] parts = new byte[ranks][];
        Arrays.fill(parts, failure(failure));
        return parts;
    }

    /** The payload, or an {@link IOException} carrying rank 0's reason for {@code step}. */
    static byte[] unwrap(byte[] verdict, String step) throws IOException {
        byte[] body = Arrays.copyOfRange(verdict, 1, verdict.length);
        if (verdict[0] == FAILURE) {
            throw new IOException(step + " failed on rank 0: " + new String(body, StandardCharsets.UTF_8));
        }
        return body;
    }

    private static byte[] prefixed(byte status, byte[] body) {
        byte[] out = new byte[body.length + 1];
        out[0] = status;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }
}
