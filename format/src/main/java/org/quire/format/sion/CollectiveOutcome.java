package org.quire.format.sion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
     * rank failed: the rank's own exception where it has one, otherwise an {@link IOException}
     * naming the ranks that failed.
     */
    static void agree(Collectives collectives, Throwable failure, String step) throws IOException {
        byte[] mine = failure == null ? new byte[0]
                : ("rank " + collectives.rank() + ": " + failure).getBytes(StandardCharsets.UTF_8);
        byte[][] all = collectives.gather(mine, 0);
        byte[] summary = null;
        if (collectives.rank() == 0) {
            List<String> failures = new ArrayList<>();
            for (byte[] report : all) {
                if (report.length > 0) {
                    failures.add(new String(report, StandardCharsets.UTF_8));
                }
            }
            summary = String.join("; ", failures).getBytes(StandardCharsets.UTF_8);
        }
        byte[] verdict = collectives.broadcast(summary, 0);
        if (failure != null) {
            rethrow(failure);
        }
        if (verdict.length > 0) {
            throw new IOException(step + " failed on other ranks: " + new String(verdict, StandardCharsets.UTF_8));
        }
    }

    static void rethrow(Throwable failure) throws IOException {
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
