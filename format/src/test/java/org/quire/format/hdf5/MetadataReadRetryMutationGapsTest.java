package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.CorruptFileException;

/**
 * {@link MetadataReadRetry} at its limits: exactly {@code attempts} reads, a reset before each
 * retry only, the pauses doubling up to their bound, a budget that counts the next pause, the
 * retries counted by structure, and the exhausted failure's message and fields.
 */
class MetadataReadRetryMutationGapsTest {

    private static final Duration LONG = Duration.ofSeconds(60);

    private static CorruptFileException torn(String structure) {
        return new CorruptFileException(Path.of("x.h5"), 40, structure, "checksum", "0x1", "0x2");
    }

    private static SwmrReadOptions options(int attempts, Duration budget, Duration firstPause,
                                           Duration maxPause) {
        return new SwmrReadOptions(attempts, budget, firstPause, maxPause,
                ChunkCacheSettings.NONE);
    }

    /** A read that fails its check {@code failures} times, then reads "read". */
    private static MetadataReadRetry.Read<String> failing(int failures, AtomicInteger reads) {
        return () -> {
            if (reads.incrementAndGet() <= failures) {
                throw torn(reads.get() % 2 == 1 ? "object header" : "fixed array data block");
            }
            return "read";
        };
    }

    /** {@code attempts} reads: the last may still succeed, one more failure gives up. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5})
    void exactlyTheAttemptsAreRead(int attempts) throws IOException {
        SwmrReadOptions options = options(attempts, LONG, Duration.ZERO, Duration.ZERO);
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger resets = new AtomicInteger();
        MetadataReadRetry retry = new MetadataReadRetry(options);
        assertEquals("read", retry.run(failing(attempts - 1, reads), resets::incrementAndGet));
        assertEquals(attempts, reads.get());
        assertEquals(attempts - 1, resets.get(), "a reset before each retry, none before the first");
        assertEquals(attempts - 1, retry.total());

        reads.set(0);
        MetadataRetriesExhaustedException e = assertThrows(MetadataRetriesExhaustedException.class,
                () -> retry.run(failing(attempts, reads), () -> { }));
        assertEquals(attempts, reads.get());
        assertEquals(attempts, e.attempts());
        assertEquals(2L * (attempts - 1), retry.total(), "the last failure is no retry");
    }

    @Test
    void retriesAreCountedByTheStructureThatFailed() throws IOException {
        MetadataReadRetry retry = new MetadataReadRetry(options(10, LONG, Duration.ZERO,
                Duration.ZERO));
        retry.run(failing(3, new AtomicInteger()), () -> { });
        assertEquals(3, retry.total());
        Map<String, Long> byStructure = retry.byStructure();
        assertEquals(Map.of("object header", 2L, "fixed array data block", 1L), byStructure);
        assertThrows(UnsupportedOperationException.class, () -> byStructure.put("x", 1L));
    }

    /**
     * Pauses of 10, then 20 ms (the bound) before each of the second to the twelfth read: 210
     * ms in all, not the 20 s unbounded doubling would take; the message says how long.
     */
    @Test
    void thePausesDoubleUpToTheirBound() {
        long start = System.nanoTime();
        MetadataRetriesExhaustedException e = assertThrows(MetadataRetriesExhaustedException.class,
                () -> new MetadataReadRetry(options(12, LONG, Duration.ofMillis(10),
                        Duration.ofMillis(20))).run(failing(12, new AtomicInteger()), () -> { }));
        long took = System.nanoTime() - start;
        assertTrue(took >= 210_000_000L && took < 5_000_000_000L, took + " ns");
        double seconds = Double.parseDouble(e.found().replaceAll(".* \\(12 reads in ([0-9.]+) s, "
                + "SWMR reader\\)", "$1"));
        assertTrue(seconds >= 0.21 && seconds <= took / 1e9 + 0.005, e.getMessage());
    }

    /** A pause that would end past the budget is not taken: one read, no retry. */
    @Test
    void aPauseLongerThanTheBudgetEndsTheRetries() {
        AtomicInteger reads = new AtomicInteger();
        long start = System.nanoTime();
        assertThrows(MetadataRetriesExhaustedException.class, () -> new MetadataReadRetry(
                options(5, Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(10)))
                .run(failing(5, reads), () -> { }));
        assertEquals(1, reads.get());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "no pause taken");
    }

    /**
     * A budget of zero with no pause: the first failure is at the budget's very start, so one
     * retry still runs; the second failure is past it.
     */
    @Test
    void aZeroBudgetStillRetriesOnce() {
        AtomicInteger reads = new AtomicInteger();
        assertThrows(MetadataRetriesExhaustedException.class, () -> new MetadataReadRetry(
                options(5, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .run(failing(5, reads), () -> { }));
        assertEquals(2, reads.get());
    }

    /** A reset that fails its check counts as a failed attempt; the read is tried again. */
    @Test
    void aFailedResetIsAFailedAttempt() throws IOException {
        AtomicInteger resets = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        MetadataReadRetry retry = new MetadataReadRetry(options(3, LONG, Duration.ZERO,
                Duration.ZERO));
        assertEquals("read", retry.run(failing(1, reads), () -> {
            if (resets.incrementAndGet() == 1) {
                throw torn("B-tree node");
            }
        }));
        assertEquals(2, reads.get());
        assertEquals(Map.of("object header", 1L, "B-tree node", 1L), retry.byStructure());
    }

    /** An inner read that gave up already, or a failure that is no failed check: no retry. */
    @Test
    void onlyAFailedCheckIsRetried() {
        MetadataReadRetry retry = new MetadataReadRetry(options(5, LONG, Duration.ZERO,
                Duration.ZERO));
        MetadataRetriesExhaustedException inner = new MetadataRetriesExhaustedException(
                torn("object header"), 3, 0);
        AtomicInteger reads = new AtomicInteger();
        assertSame(inner, assertThrows(MetadataRetriesExhaustedException.class,
                () -> retry.run(() -> {
                    reads.incrementAndGet();
                    throw inner;
                }, () -> { })));
        assertEquals(1, reads.get());
        assertEquals(0, retry.total());
    }

    @Test
    void theExhaustedFailureNamesTheBlockTheReadsAndTheObject() {
        CorruptFileException last = torn("object header");
        MetadataRetriesExhaustedException e = new MetadataRetriesExhaustedException(last, 20,
                980_000_000L);
        assertEquals("x.h5: corrupt object header at offset 40: checksum expected 0x1, found "
                + "0x2 (20 reads in 0.98 s, SWMR reader)", e.getMessage());
        assertSame(last, e.getCause());
        assertEquals(20, e.attempts());
        MetadataRetriesExhaustedException named = e.of("/group/d");
        assertEquals("x.h5: corrupt object header of /group/d at offset 40: checksum expected "
                + "0x1, found 0x2 (20 reads in 0.98 s, SWMR reader)", named.getMessage());
        assertEquals(20, named.attempts());
        assertSame(named, named.of("/other"), "named once, by the innermost object");
    }
}
