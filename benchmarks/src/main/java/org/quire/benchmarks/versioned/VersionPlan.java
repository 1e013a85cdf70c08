package org.quire.benchmarks.versioned;

/**
 * The versions both writers commit, in this order, each on the previous one, of one 1-D float64
 * dataset {@code x} of MIB MiB in chunks of {@value #CHUNK_ELEMENTS} elements (1 MiB; not
 * versioned-hdf5's default of 4096 elements, which would make 32 times as many chunks):
 *
 * <ol>
 * <li>{@code create}: every chunk, generation 0, on the empty version;</li>
 * <li>{@code untouched}: the dataset not written (0 % changed, nothing to hash);</li>
 * <li>{@code same}: every chunk written again with its own values (0 % changed, all hashed);</li>
 * <li>{@code one_percent}: {@link #changedChunks} chunks, spread evenly, get generation 1;</li>
 * <li>{@code all}: every chunk gets generation 2 (100 % changed).</li>
 * </ol>
 *
 * Element j of chunk c in generation g is {@code c * CHUNK_ELEMENTS + j + g * 2^32}: every chunk
 * of every generation differs, so nothing dedupes by accident. {@code benchmarks/versions_reference.py}
 * computes the same values.
 */
final class VersionPlan {

    static final int CHUNK_ELEMENTS = 131072;
    static final String[] VERSIONS = {"create", "untouched", "same", "one_percent", "all"};

    private VersionPlan() {
    }

    /** How many chunks {@code one_percent} changes: 1 % of them, rounded, at least one. */
    static int changedChunks(int chunks) {
        return Math.max(1, Math.round(chunks / 100f));
    }

    /** The k-th chunk {@code one_percent} changes, of {@code changed} spread evenly. */
    static int changedChunk(int k, int chunks, int changed) {
        return (int) ((long) k * chunks / changed);
    }

    static void fill(double[] chunk, int c, int generation) {
        double base = (double) c * CHUNK_ELEMENTS + generation * 4294967296.0;
        for (int j = 0; j < chunk.length; j++) {
            chunk[j] = base + j;
        }
    }

    /** The checksum of version {@code one_percent}: the sum of its elements as longs, modulo 2^64. */
    static long onePercentChecksum(int chunks) {
        int changed = changedChunks(chunks);
        long sum = 0;
        int next = 0;
        for (int c = 0; c < chunks; c++) {
            int generation = 0;
            if (next < changed && changedChunk(next, chunks, changed) == c) {
                generation = 1;
                next++;
            }
            long base = (long) c * CHUNK_ELEMENTS + ((long) generation << 32);
            sum += base * CHUNK_ELEMENTS + (long) CHUNK_ELEMENTS * (CHUNK_ELEMENTS - 1) / 2;
        }
        return sum;
    }
}
