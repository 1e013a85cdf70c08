package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;

/** {@link MetadataReadRetry}: its budget counted from the first failure, its attempts. */
class MetadataReadRetryTest {

    private static final SwmrReadOptions TEN_MILLISECONDS =
            SwmrReadOptions.DEFAULT.withAttempts(20, Duration.ofMillis(10));

    private static CorruptFileException torn() {
        return new CorruptFileException(Path.of("x.h5"), 40, "object header", "checksum",
                "0x1", "0x2");
    }

    private static void takeMillis(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            LockSupport.parkNanos(end - System.nanoTime());
        }
    }

    @Test
    void aReadLongerThanTheBudgetIsStillTriedAgain() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        String result = new MetadataReadRetry(TEN_MILLISECONDS).run(() -> {
            takeMillis(30); // a whole walk, longer than the budget
            if (reads.incrementAndGet() == 1) {
                throw torn();
            }
            return "read";
        }, () -> { });
        assertEquals("read", result);
        assertEquals(2, reads.get());
    }

    @Test
    void aReadFailingEveryTimeStopsOnceTheBudgetAfterTheFirstFailureIsSpent() {
        AtomicInteger reads = new AtomicInteger();
        MetadataRetriesExhaustedException e = assertThrows(
                MetadataRetriesExhaustedException.class,
                () -> new MetadataReadRetry(TEN_MILLISECONDS).run(() -> {
                    reads.incrementAndGet();
                    takeMillis(30);
                    throw torn();
                }, () -> { }));
        assertEquals(2, reads.get(), e.getMessage());
    }
}
