package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;

/** {@link RootVerdict#decide}: rank 0's work reaches every rank as its payload, or as rank 0's failure. */
class RootVerdictTest {

    private static final int RANKS = 3;

    @Test
    void everyRankGetsThePayloadRankZeroComputedForIt() throws Exception {
        List<String> got = ThreadGroupCollectives.run(RANKS, collectives -> new String(RootVerdict.decide(collectives,
                "testing", () -> new byte[][] {"zero".getBytes(), "one".getBytes(), "two".getBytes()})));
        assertEquals(List.of("zero", "one", "two"), got);
    }

    @Test
    void rankZerosFailureIsThrownOnEveryRank() throws Exception {
        CorruptFileException failure = new CorruptFileException(Path.of("f.sion"), 8, "META1", "blocksize",
                "a power of 2", "3");
        List<IOException> thrown = ThreadGroupCollectives.run(RANKS, collectives -> {
            try {
                RootVerdict.decide(collectives, "testing", () -> {
                    throw failure;
                });
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        for (IOException e : thrown) {
            assertInstanceOf(CorruptFileException.class, e);
            assertEquals(failure.getMessage(), e.getMessage());
        }
    }
}
