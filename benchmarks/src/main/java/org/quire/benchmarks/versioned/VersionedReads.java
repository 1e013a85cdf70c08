package org.quire.benchmarks.versioned;

import org.quire.format.hdf5.Dataset;
import org.quire.format.versioned.VersionedFile;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Read throughput of version {@code one_percent} of {@link VersionPlan} through Quire's
 * {@code VersionedFile.dataset(version, "x")}, one chunk per call, page cache warm, for
 * {@code benchmarks/versions.sh}:
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.versioned.VersionedReads MIB REPEATS NAME=FILE...
 * </pre>
 *
 * Per file: untimed passes until at least {@value #WARM_UP_READS} chunks were read (page cache,
 * and the JIT: fewer left Quire's reads several times slower, still being compiled), then
 * REPEATS timed passes, each opening the file, reading every chunk and closing it; the elements' sum as longs is checked against
 * {@link VersionPlan#onePercentChecksum} after every pass (a mismatch aborts). One line per pass:
 *
 * <pre>
 * result op=read reader=quire file=versioned-hdf5 bytes=1073741824 seconds=0.456
 * </pre>
 */
public final class VersionedReads {

    private static final int WARM_UP_READS = 8192;

    private VersionedReads() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: VersionedReads MIB REPEATS NAME=FILE...");
        }
        int chunks = Integer.parseInt(args[0]);
        int repeats = Integer.parseInt(args[1]);
        long expected = VersionPlan.onePercentChecksum(chunks);
        for (int a = 2; a < args.length; a++) {
            String[] named = args[a].split("=", 2);
            Path file = Path.of(named[1]);
            for (int read = 0; read < WARM_UP_READS; read += chunks) {
                readChecked(file, chunks, expected);
            }
            for (int repeat = 0; repeat < repeats; repeat++) {
                long start = System.nanoTime();
                readChecked(file, chunks, expected);
                long seconds = System.nanoTime() - start;
                System.out.printf("result op=read reader=quire file=%s bytes=%d seconds=%.6f%n", named[0],
                        (long) chunks * VersionPlan.CHUNK_ELEMENTS * 8, seconds / 1e9);
            }
        }
    }

    private static void readChecked(Path file, int chunks, long expected) throws IOException {
        double[] chunk = new double[VersionPlan.CHUNK_ELEMENTS];
        long sum = 0;
        try (VersionedFile versioned = VersionedFile.open(file)) {
            Dataset x = versioned.dataset("one_percent", "x");
            for (int c = 0; c < chunks; c++) {
                x.read(new long[] {(long) c * chunk.length}, new long[] {chunk.length}, chunk);
                for (double v : chunk) {
                    sum += (long) v;
                }
            }
        }
        if (sum != expected) {
            throw new IllegalStateException(file + ": version one_percent sums to " + sum + ", expected " + expected);
        }
    }
}
