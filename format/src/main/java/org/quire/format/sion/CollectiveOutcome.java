package org.quire.format.sion;

import java.io.IOException;
import org.quire.format.Collectives;

/**
 * Makes every rank of a collective step learn whether any rank failed, so that no rank goes on
 * to a later collective (and waits forever) while another has given up. One gather and one
 * broadcast.
 */
final class CollectiveOutcome {

    private CollectiveOutcome() {
    }

    /**
     * Reports this rank's {@code failure} (null if it succeeded) and throws on every rank if any
     * rank failed: the rank's own exception where it has one, otherwise the failure of the lowest
     * rank that failed, with the same class and fields ({@link CrossRankFailure}).
     */
    static void agree(Collectives collectives, Throwable failure, String step) throws IOException {
        byte[] mine = failure == null ? new byte[0] : CrossRankFailure.encode(collectives.rank(), failure);
        byte[][] all = collectives.gather(mine, 0);
        byte[] first = null;
        if (collectives.rank() == 0) {
            first = new byte[0];
            for (byte[] report : all) {
                if (report.length > 0) {
                    first = report;
                    break;
                }
            }
        }
        byte[] verdict = collectives.broadcast(first, 0);
        if (failure != null) {
            rethrow(failure);
        }
        if (verdict.length > 0) {
            CrossRankFailure.rethrow(verdict, step);
        }
    }

    private static void rethrow(Throwable failure) throws IOException {
        if (failure instanceof IOException io) {
            throw io;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new IOException(failure);
    }
}
