package org.quire.benchmarks.swmr;

import org.quire.examples.swmr.SwmrRecord;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One reader process of the visibility measurement, started by {@link SwmrAppendBenchmark}:
 *
 * <pre>java -cp ... org.quire.benchmarks.swmr.VisibilityReader LIBRARY INDEX FILE RECORDS</pre>
 *
 * Opens FILE, which LIBRARY's SWMR writer has open, as an SWMR reader, prints {@code ready}, then polls
 * {@code refresh} without pausing until RECORDS records are visible. Each time the extent grew it takes the time
 * at once, and the latency of that observation is that time minus the newest visible record's {@code t_ns} (the
 * writer's {@code System.nanoTime()} when it encoded the record, just before its extend, write and flush: the
 * same clock, {@code CLOCK_MONOTONIC}, in every process of the host). Then it reads every newly visible record
 * and checks it against the record contract. Observations while the first fifth of RECORDS becomes visible are a
 * warm-up (both processes compile their loops) and not sampled. Prints one line and exits 0, or 1 if a record was wrong or RECORDS
 * were not visible within {@value #TIMEOUT_SECONDS} s:
 *
 * <pre>visible samples=2000 p50_ns=21000 p99_ns=46000 max_ns=1030000 bad=0 records=2000</pre>
 */
public final class VisibilityReader {

    private static final int TIMEOUT_SECONDS = 60;
    private static final int READ_RECORDS = 1024;

    private VisibilityReader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: VisibilityReader LIBRARY INDEX FILE RECORDS");
        }
        SwmrLibrary library = SwmrLibrary.named(args[0]);
        RecordIndex index = RecordIndex.named(args[1]);
        long records = Long.parseLong(args[3]);
        long[] latencies = new long[(int) Math.min(records, 10_000_000)];
        int samples = 0;
        long bad = 0;
        long seen = 0;
        ByteBuffer buffer = ByteBuffer.allocate(READ_RECORDS * SwmrRecord.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        try (SwmrLibrary.Reader reader = library.openSwmr(Path.of(args[2]), index)) {
            System.out.println("ready");
            System.out.flush();
            long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
            while (seen < records && System.nanoTime() < deadline) {
                long extent = reader.refresh();
                if (extent <= seen) {
                    continue;
                }
                long now = System.nanoTime();
                if (extent > records / 5) {
                    reader.read(extent - 1, 1, buffer);
                    latencies[samples++] = now - SwmrRecord.tNs(buffer.position(0));
                }
                for (long start = seen; start < extent; start += READ_RECORDS) {
                    int count = (int) Math.min(READ_RECORDS, extent - start);
                    reader.read(start, count, buffer);
                    for (int i = 0; i < count; i++) {
                        if (SwmrRecord.verify(buffer.position(i * SwmrRecord.SIZE), start + i)
                                != SwmrRecord.Verdict.OK) {
                            bad++;
                        }
                    }
                    buffer.clear();
                }
                seen = extent;
            }
        }
        long[] sorted = Arrays.copyOf(latencies, samples);
        Arrays.sort(sorted);
        System.out.printf("visible samples=%d p50_ns=%d p99_ns=%d max_ns=%d bad=%d records=%d%n", samples,
                percentile(sorted, 0.50), percentile(sorted, 0.99), samples == 0 ? -1 : sorted[samples - 1], bad,
                seen);
        System.exit(bad == 0 && seen >= records ? 0 : 1);
    }

    /** The value at fraction {@code q} of the sorted {@code values} (nearest rank), or -1 if there is none. */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }
}
