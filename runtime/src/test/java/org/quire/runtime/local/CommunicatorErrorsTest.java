package org.quire.runtime.local;

import org.junit.jupiter.api.Test;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Misuse of the message-built communicator: one clear error on the ranks concerned, never a hang. */
class CommunicatorErrorsTest {

    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @Test
    void allreduceOfVectorsOfDifferentLengthsFailsOnEveryRank() {
        List<String> errors = LocalWorld.run(3, GENEROUS, world -> assertThrows(IllegalArgumentException.class,
                () -> world.allreduce(new long[world.rank() == 2 ? 4 : 3], ReduceOp.SUM)).getMessage());
        assertEquals(Collections.nCopies(3, "allreduce vectors differ in length: rank 0 has 3 values, rank 2 has 4"),
                errors);
    }

    @Test
    void aUserOperationThatThrowsFailsTheAllreduceOnEveryRank() {
        List<String> errors = LocalWorld.run(4, GENEROUS, world -> assertThrows(IllegalArgumentException.class,
                () -> world.allreduce(new byte[world.rank()], (a, b) -> {
                    if (b.length == 3) {
                        throw new IllegalStateException("no threes");
                    }
                    return b;
                })).getMessage());
        assertEquals(Collections.nCopies(4, "no threes"), errors);
    }

    @Test
    void aMessageReceivedAsAnotherKindIsRefusedNamingBoth() {
        List<String> errors = LocalWorld.run(2, GENEROUS, world -> {
            world.send(new long[] {1, 2, 3}, 1 - world.rank(), 7);
            return assertThrows(CommunicationException.class, () -> world.receiveDoubles(1 - world.rank(), 7))
                    .getMessage();
        });
        assertEquals("rank 0: the message from rank 1 with tag 7 holds long[] (24 bytes) but was received as double[]",
                errors.get(0));
    }

    @Test
    void aMessageLongerThanTheBufferIsRefused() {
        String error = LocalWorld.run(1, GENEROUS, world -> {
            world.send(new byte[10], 0, 3);
            ByteBuffer small = ByteBuffer.allocateDirect(16).position(8);
            return assertThrows(CommunicationException.class, () -> world.receive(small, 0, 3)).getMessage();
        }).get(0);
        assertEquals("rank 0: the message from rank 0 with tag 3 has 10 bytes; the buffer has 8 left", error);
    }

    @Test
    void ranksAndTagsOutsideTheCommunicatorAreRefusedBeforeAnythingIsSent() {
        List<String> errors = LocalWorld.run(4, GENEROUS, world -> {
            var pair = world.split(world.rank() / 2, 0);
            String rank = assertThrows(IllegalArgumentException.class, () -> pair.send(new int[1], 2, 0)).getMessage();
            String tag = assertThrows(IllegalArgumentException.class, () -> pair.receiveLater(0, -1)).getMessage();
            return rank + "; " + tag;
        });
        assertEquals(Collections.nCopies(4, "destination rank 2 is outside the communicator 0..1; message tags must"
                + " be >= 0, got -1"), errors);
    }
}
