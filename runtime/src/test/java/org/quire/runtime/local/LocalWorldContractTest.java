package org.quire.runtime.local;

import org.quire.runtime.Communicator;
import org.quire.runtime.DelegatingCommunicator;
import org.quire.runtime.QuireRuntimeException;
import org.quire.runtime.check.CommunicatorContract;
import org.quire.runtime.check.ContractViolation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;

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
        // Every rank ran every check: 54 that do not depend on the size, 9 per rank as root or peer.
        assertEquals(Collections.nCopies(size, 9 * size + 54), checks);
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

    @Test
    void theContractCatchesAUserAllreduceFoldedInReverseOrder() {
        assertViolation(3, "allreduce(byte[], concatenation) in rank order", world -> new DelegatingCommunicator(world) {
            @Override
            public byte[] allreduce(byte[] value, BinaryOperator<byte[]> op) {
                return delegate.allreduce(value, (a, b) -> op.apply(b, a));
            }
        });
    }

    @Test
    void theContractCatchesASplitThatIgnoresKeys() {
        assertViolation(4, ") rank and size", world -> new DelegatingCommunicator(world) {
            @Override
            public Communicator split(int color, int key) {
                return delegate.split(color, 0);
            }
        });
    }

    @Test
    void theContractCatchesATypedMessageThatLosesTheSignOfZero() {
        assertViolation(3, "double[] from", world -> new DelegatingCommunicator(world) {
            @Override
            public double[] receiveDoubles(int source, int tag) {
                return Arrays.stream(delegate.receiveDoubles(source, tag)).map(v -> v + 0.0).toArray();
            }
        });
    }

    /** An engine bug to prove the contract can fail: allgather results in reverse rank order. */
    private static final class ReversedAllgather extends DelegatingCommunicator {
        ReversedAllgather(Communicator delegate) {
            super(delegate);
        }

        @Override
        public byte[][] allgather(byte[] data) {
            List<byte[]> all = Arrays.asList(delegate.allgather(data));
            Collections.reverse(all);
            return all.toArray(new byte[0][]);
        }
    }

    private static void assertViolation(int size, String operation, Function<Communicator, Communicator> plantBug) {
        QuireRuntimeException failure = assertThrows(QuireRuntimeException.class, () ->
                LocalWorld.run(size, GENEROUS, world -> CommunicatorContract.verify(plantBug.apply(world))));
        assertTrue(failure.getCause() instanceof ContractViolation, String.valueOf(failure.getCause()));
        assertTrue(failure.getCause().getMessage().contains(operation), failure.getCause().getMessage());
    }

    @Test
    void selfWorldHasOneRankAndTalksToItself() {
        var self = LocalWorld.self();
        assertEquals(0, self.rank());
        assertEquals(1, self.size());
        assertEquals(63, CommunicatorContract.verify(self));
    }
}
