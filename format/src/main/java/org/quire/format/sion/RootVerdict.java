package org.quire.format.sion;

import java.io.IOException;
import java.util.Arrays;

/**
 * What rank 0 scatters after a step only it performs (planning a write, reading metadata): either
 * the rank's payload or the failure rank 0 found, so that every rank stops instead of waiting and
 * throws the same exception. Wire form: one status byte (1 = payload follows, 0 = a
 * {@link CrossRankFailure} follows), then the bytes.
 */
final class RootVerdict {

    private static final byte PAYLOAD = 1;
    private static final byte FAILURE = 0;

    private RootVerdict() {
    }

    static byte[] payload(byte[] payload) {
        return prefixed(PAYLOAD, payload);
    }

    /** Every rank's part when rank 0 failed. */
    static byte[][] failureForAll(Throwable failure, int ranks) {
        byte[][] parts = new byte[ranks][];
        Arrays.fill(parts, prefixed(FAILURE, CrossRankFailure.encode(0, failure)));
        return parts;
    }

    /** The payload, or rank 0's failure in {@code step}, thrown with its class and fields. */
    static byte[] unwrap(byte[] verdict, String step) throws IOException {
        byte[] body = Arrays.copyOfRange(verdict, 1, verdict.length);
        if (verdict[0] == FAILURE) {
            CrossRankFailure.rethrow(body, step);
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
