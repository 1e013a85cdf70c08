package org.quire.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * An allreduce as a gather to rank 0, a combination there and a broadcast of its result. When the
 * combination fails (vectors of different lengths, a user operation that throws), rank 0
 * broadcasts the failure instead, so every rank throws the same {@link IllegalArgumentException}
 * rather than waiting for a result that never comes. Rank 0 combines in rank order, so every run
 * of one job rounds the same way.
 */
public final class CombineAtRoot {

    private static final byte RESULT = 0;
    private static final byte FAILURE = 1;

    private CombineAtRoot() {
    }

    /**
     * @param combine on rank 0, {@code world.size()} contributions indexed by rank to one result;
     *                throws {@link RuntimeException} to fail the operation on every rank
     */
    public static byte[] allreduce(Communicator world, byte[] mine, Function<byte[][], byte[]> combine) {
        byte[][] all = world.gather(mine, 0);
        byte[] outcome = null;
        if (world.rank() == 0) {
            try {
                outcome = tagged(RESULT, combine.apply(all));
            } catch (RuntimeException e) {
                outcome = tagged(FAILURE, String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
            }
        }
        outcome = world.broadcast(outcome, 0);
        byte[] body = Arrays.copyOfRange(outcome, 1, outcome.length);
        if (outcome[0] == FAILURE) {
            throw new IllegalArgumentException(new String(body, StandardCharsets.UTF_8));
        }
        return body;
    }

    private static byte[] tagged(byte kind, byte[] body) {
        byte[] outcome = new byte[body.length + 1];
        outcome[0] = kind;
        System.arraycopy(body, 0, outcome, 1, body.length);
        return outcome;
    }
}
