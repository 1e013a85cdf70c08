package org.quire.format.hdf5;

import java.time.Duration;

/**
 * How an SWMR reader ({@link Hdf5File#openSwmr}) treats a metadata block that fails its check
 * (checksum, signature, a pointer past the end of the file): the writer may be rewriting it in
 * place, so the read is tried again after a pause that starts at {@code firstPause} and doubles
 * up to {@code maxPause}, at most {@code attempts} reads in all and no new one
 * {@code budget} after the first failed (so a read longer than the budget is still tried
 * again); then it fails with {@link MetadataRetriesExhaustedException}. libhdf5 tries
 * 100 times with a doubling sleep, which on a damaged file never ends in practice; the defaults
 * here give up within about a second.
 *
 * @param attempts   reads in all, the first included (1: no retry)
 * @param budget     time from the first failed read after which no further read is started
 * @param firstPause pause before the second read
 * @param maxPause   longest pause between reads
 * @param chunkCache chunk cache of each dataset
 */
public record SwmrReadOptions(int attempts, Duration budget, Duration firstPause,
                              Duration maxPause, ChunkCacheSettings chunkCache) {

    /** 20 reads within 1 s, pauses from 50 µs doubling up to 100 ms; libhdf5's chunk cache. */
    public static final SwmrReadOptions DEFAULT = new SwmrReadOptions(20, Duration.ofSeconds(1),
            Duration.ofNanos(50_000), Duration.ofMillis(100), ChunkCacheSettings.DEFAULT);

    public SwmrReadOptions {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
        if (budget.isNegative() || firstPause.isNegative() || maxPause.isNegative()) {
            throw new IllegalArgumentException("negative duration in " + budget + ", "
                    + firstPause + ", " + maxPause);
        }
    }

    /** These options with at most {@code newAttempts} reads within {@code newBudget}. */
    public SwmrReadOptions withAttempts(int newAttempts, Duration newBudget) {
        return new SwmrReadOptions(newAttempts, newBudget, firstPause, maxPause, chunkCache);
    }
}
