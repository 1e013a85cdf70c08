package org.quire.format.sion;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.Collectives;

/**
 * What rank 0 scatters after a step only it performs (planning a write, reading metadata): either
 * the rank's payload or the failure rank 0 found, so that every rank stops instead of waiting and
 * throws the same exception ({@link #decide} does all of it for a step that needs nothing else
 * from rank 0 afterwards). Wire form: one status byte (1 = payload follows, 0 = a
 * {@link CrossRankFailure} follows), then the bytes.
 */
final class RootVerdict {

    private static final byte PAYLOAD = 1;
    private static final byte FAILURE = 0;

    private RootVerdict() {
    }

    /** Rank 0's work: every rank's payload, indexed by rank. */
    @FunctionalInterface
    interface RootWork {
        byte[][] payloads() throws IOException;
    }

    /**
     * Rank 0 runs {@code work} and scatters each rank its payload, or the failure {@code work}
     * threw; every rank returns its payload or throws that failure ({@code step} names what
     * failed; rank 0 throws the original). Collective.
     */
    static byte[] decide(Collectives collectives, String step, RootWork work) throws IOException {
        byte[][] parts = null;
        if (collectives.rank() == 0) {
            try {
                byte[][] payloads = work.payloads();
                parts = new byte[payloads.length][];
                for (int rank = 0; rank < payloads.length; rank++) {
                    parts[rank] = payload(payloads[rank]);
                }
            } catch (IOException | RuntimeException e) {
                collectives.scatter(failureForAll(e, collectives.size()), 0);
                throw e;
            }
        }
        return unwrap(collectives.scatter(parts, 0), step);
    }

    /** {@code payload} for each of {@code ranks} ranks. */
    static byte[][] sameForAll(byte[] payload, int ranks) {
        byte[][] parts = new byte[ranks][];
        Arrays.fill(parts, payload);
        return parts;
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
