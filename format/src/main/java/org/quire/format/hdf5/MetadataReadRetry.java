package org.quire.format.hdf5;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

import org.quire.format.CorruptFileException;

/**
 * An SWMR reader's bounded retry: runs a read of metadata again, after a pause, when a block
 * fails its check (the writer rewrites object headers and index blocks in place, so a
 * concurrent read may see half of each version), within {@link SwmrReadOptions}; counts the
 * retries by structure, as libhdf5's {@code H5Fget_metadata_read_retry_info} does.
 *
 * <p>A read is retried whole (the object header, or a dataset read with its index reopened),
 * not block by block: a torn pointer may lead anywhere, and starting again from the object
 * header, written last by the writer, reaches a consistent state.
 */
final class MetadataReadRetry {

    /** A read of metadata. */
    @FunctionalInterface
    interface Read<T> {
        T run() throws IOException;
    }

    /** What to do before trying again (drop what the failed attempt may have cached). */
    @FunctionalInterface
    interface Reset {
        void run() throws IOException;
    }

    private final SwmrReadOptions options;
    private final Map<String, Long> retries = new TreeMap<>();
    private long total;

    MetadataReadRetry(SwmrReadOptions options) {
        this.options = options;
    }

    /**
     * Runs {@code read}; after a failed check, pauses, runs {@code reset} and {@code read}
     * again (a failure in {@code reset} counts as a failed attempt too).
     *
     * @throws MetadataRetriesExhaustedException every attempt failed its check
     */
    <T> T run(Read<T> read, Reset reset) throws IOException {
        long start = System.nanoTime();
        // The budget runs from the first failure: a read longer than the budget (a whole
        // verification walk) is still tried again.
        long firstFailure = 0;
        long pause = options.firstPause().toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                if (attempt > 1) {
                    reset.run();
                }
                return read.run();
            } catch (MetadataRetriesExhaustedException e) {
                throw e; // an inner read gave up already
            } catch (CorruptFileException e) {
                long now = System.nanoTime();
                long elapsed = now - start;
                if (attempt == 1) {
                    firstFailure = now;
                }
                if (attempt >= options.attempts()
                        || now - firstFailure + pause > options.budget().toNanos()) {
                    throw new MetadataRetriesExhaustedException(e, attempt, elapsed);
                }
                count(e.structure());
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, options.maxPause().toNanos());
            }
        }
    }

    private synchronized void count(String structure) {
        retries.merge(structure, 1L, Long::sum);
        total++;
    }

    synchronized long total() {
        return total;
    }

    synchronized Map<String, Long> byStructure() {
        return Collections.unmodifiableMap(new TreeMap<>(retries));
    }
}
