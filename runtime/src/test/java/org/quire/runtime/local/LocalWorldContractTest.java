package org.quire.runtime.local;

import org.quire.runtime.Communicator;
import org.quire.runtime.QuireRuntimeException;
import org.quire.runtime.ReduceOp;
import org.quire.runtime.check.CommunicatorContract;
import org.quire.runtime.check.ContractViolation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalWorldContractTest {

    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void inJvmWorldHoldsTheCommunicatorContract(int size) {
        List<Integer> checks = LocalWorld.run(size, GENEROUS, CommunicatorContract::verify);
        assertEquals(size, checks.size());
        // Every rank ran every check: 11 that do not depend on the size, 9 per rank as root or peer.
        assertEquals(Collections.nCopies(size, 9 * size + 11), checks);
    }

    @Test
    void aFailingRankEndsTheWorldAndIsNamed() {
        long start = System.nanoTime();
        QuireRuntimeException failure = assertThrows(QuireRuntimeException.class, () ->
                LocalWorld.run(4, GENEROUS, world -> {
                    if (world.rank() == 2) {
                        throw new IllegalStateException("boom on 2");
                    }
                    world.barrier();
                    return null;
                }));
        assertTrue(failure.getMessage().contains("rank 2"), failure.getMessage());
        assertTrue(failure.getCause().getMessage().contains("boom on 2"));
        // The blocked ranks were interrupted, not waited for until the timeout.
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(GENEROUS) < 0);
    }

    @Test
    void aWorldThatNeverFinishesTimesOut() {
        QuireRuntimeException failure = assertThrows(QuireRuntimeException.class, () ->
                LocalWorld.run(2, Duration.ofMillis(300), world -> world.receive(1 - world.rank(), 0)));
        assertTrue(failure.getMessage().contains("did not finish within"), failure.getMessage());
    }

    @Test
    void theContractCatchesAnEngineThatReordersAllgather() {
        QuireRuntimeException failure = assertThrows(QuireRuntimeException.class, () ->
                LocalWorld.run(3, GENEROUS, world -> CommunicatorContract.verify(new ReversedAllgather(world))));
        assertTrue(failure.getCause() instanceof ContractViolation, String.valueOf(failure.getCause()));
        assertTrue(failure.getCause().getMessage().contains("allgather from 0"), failure.getCause().getMessage());
    }

    /** An engine bug to prove the contract can fail: allgather results in reverse rank order. */
    private static final class ReversedAllgather implements Communicator {
        private final Communicator delegate;

        ReversedAllgather(Communicator delegate) {
            this.delegate = delegate;
        }

        @Override
        public byte[][] allgather(byte[] data) {
            List<byte[]> all = Arrays.asList(delegate.allgather(data));
            Collections.reverse(all);
            return all.toArray(new byte[0][]);
        }

        @Override
        public int rank() {
            return delegate.rank();
        }

        @Override
        public int size() {
            return delegate.size();
        }

        @Override
        public void barrier() {
            delegate.barrier();
        }

        @Override
        public byte[] broadcast(byte[] data, int root) {
            return delegate.broadcast(data, root);
        }

        @Override
        public byte[][] gather(byte[] data, int root) {
            return delegate.gather(data, root);
        }

        @Override
        public byte[] scatter(byte[][] parts, int root) {
            return delegate.scatter(parts, root);
        }

        @Override
        public long[] reduce(long[] values, ReduceOp op, int root) {
            return delegate.reduce(values, op, root);
        }

        @Override
        public double[] reduce(double[] values, ReduceOp op, int root) {
            return delegate.reduce(values, op, root);
        }

        @Override
        public void send(byte[] data, int destination, int tag) {
            delegate.send(data, destination, tag);
        }

        @Override
        public byte[] receive(int source, int tag) {
            return delegate.receive(source, tag);
        }
    }

    @Test
    void selfWorldHasOneRankAndTalksToItself() {
        var self = LocalWorld.self();
        assertEquals(0, self.rank());
        assertEquals(1, self.size());
        assertEquals(20, CommunicatorContract.verify(self));
    }
}
