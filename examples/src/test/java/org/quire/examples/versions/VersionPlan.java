package org.quire.examples.versions;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;

/**
 * What version {@code k} (1, 2, ...) of the kill test's file holds, as a pure function of
 * {@code k}: its datasets, their shapes and every element's value, and which versions the
 * writer deletes after committing {@code k}. {@link VersionChurnWriter} commits it, the checker
 * ({@link VersionKillRounds}) recomputes it, so neither needs the other's history.
 *
 * <p>Each version is committed on version {@code k - 1}. A chunk of a dataset is rewritten in
 * version {@code k} when the dataset is new in {@code k}, when a seeded hash of (k, dataset,
 * chunk) says so (about one chunk in four), or when a resize that grows the dataset exposes
 * elements in it; every element of a rewritten chunk then holds {@link #value} of {@code k}.
 * So an element of version {@code k} holds the value of the last version up to {@code k} that
 * rewrote its chunk ({@link #expected}).
 */
final class VersionPlan {

    /** One versioned dataset: its path, type, chunk shape, fill value. */
    record Series(int id, String path, Datatype type, long[] chunks, double fill) {

        DatasetSpec spec(long[] shape) {
            DatasetSpec.Builder builder = DatasetSpec.builder(type, shape).chunkShape(chunks);
            return (type == Datatype.FLOAT64 ? builder.fillValue(fill)
                    : builder.fillValue((long) fill)).build();
        }
    }

    /** 1-D int64, resized (up and down, not always by whole chunks) every few versions. */
    static final Series A = new Series(0, "a", Datatype.INT64, new long[] {16}, -1);
    /** 2-D float64 in a group, its column count resized every few versions. */
    static final Series B = new Series(1, "grid/b", Datatype.FLOAT64, new long[] {8, 8}, 0.5);
    /** 1-D int64 that exists in two of every three runs of four versions (created again). */
    static final Series T = new Series(2, "tmp", Datatype.INT64, new long[] {12}, -2);
    static final List<Series> SERIES = List.of(A, B, T);

    /** A delete follows every {@value} commits. */
    static final int DELETE_EVERY = 4;
    /** The newest versions a delete keeps. */
    static final int KEEP_RECENT = 8;
    /** Every {@value}-th version is kept longer ({@link #MILESTONE_SPAN} versions). */
    static final int MILESTONE = 8;
    static final int MILESTONE_SPAN = 48;

    private VersionPlan() {
    }

    static String name(long k) {
        return String.format("v%06d", k);
    }

    /** The number of version {@code name}, or 0 for anything else. */
    static long number(String name) {
        return name.matches("v\\d{6}") ? Long.parseLong(name.substring(1)) : 0;
    }

    static boolean exists(Series series, long k) {
        return k >= 1 && (series != T || (k / 4) % 3 != 2);
    }

    static long[] shape(Series series, long k) {
        if (series == A) {
            return new long[] {160 + 16 * ((k / 3) % 5) - 5 * ((k / 7) % 2)};
        }
        if (series == B) {
            return new long[] {32, 24 + 4 * ((k / 5) % 3)};
        }
        return new long[] {96};
    }

    /** The value version {@code k} writes at {@code position} (exact in a double: below 2^53). */
    static double value(Series series, long k, long[] position) {
        long local = position.length == 1 ? position[0] : position[0] * 1000 + position[1];
        long v = k * 1_000_000 + local;
        return series == T ? -v : series == B ? v + 0.25 : v;
    }

    /** Whether version {@code k} rewrites the chunk at {@code chunk} (chunk indexes). */
    static boolean rewrites(Series series, long k, long[] chunk) {
        if (!exists(series, k - 1)) {
            return true;
        }
        if (Math.floorMod(mix(k, series.id(), chunk), 4) == 0) {
            return true;
        }
        long[] before = shape(series, k - 1);
        long[] now = shape(series, k);
        // grown: the chunk holds an element inside now's shape and outside before's
        boolean inside = true;
        boolean outsideBefore = false;
        for (int d = 0; d < now.length; d++) {
            long first = chunk[d] * series.chunks()[d];
            inside &= first < now[d];
            outsideBefore |= Math.min(first + series.chunks()[d], now[d]) > before[d];
        }
        return inside && outsideBefore;
    }

    /** The value of {@code position} in version {@code k} (the series exists in it). */
    static double expected(Series series, long k, long[] position) {
        long[] chunk = new long[position.length];
        for (int d = 0; d < chunk.length; d++) {
            chunk[d] = position[d] / series.chunks()[d];
        }
        long last = k;
        while (!rewrites(series, last, chunk)) {
            last--;
        }
        return value(series, last, position);
    }

    /** Every element of version {@code k}'s dataset, C order. */
    static double[] expectedAll(Series series, long k) {
        long[] shape = shape(series, k);
        long rows = shape.length == 1 ? 1 : shape[0];
        long columns = shape[shape.length - 1];
        double[] all = new double[(int) (rows * columns)];
        for (long r = 0; r < rows; r++) {
            for (long c = 0; c < columns; c++) {
                long[] position = shape.length == 1 ? new long[] {c} : new long[] {r, c};
                all[(int) (r * columns + c)] = expected(series, k, position);
            }
        }
        return all;
    }

    /** The chunk indexes of a shape, C order. */
    static List<long[]> chunks(Series series, long[] shape) {
        List<long[]> chunks = new ArrayList<>();
        long[] counts = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            counts[d] = (shape[d] + series.chunks()[d] - 1) / series.chunks()[d];
        }
        for (long i = 0; i < counts[0]; i++) {
            if (shape.length == 1) {
                chunks.add(new long[] {i});
            } else {
                for (long j = 0; j < counts[1]; j++) {
                    chunks.add(new long[] {i, j});
                }
            }
        }
        return chunks;
    }

    /** Whether a delete follows the commit of {@code k}. */
    static boolean deletesAfter(long k) {
        return k % DELETE_EVERY == 0;
    }

    /** The versions among {@code existing} that the delete after committing {@code k} removes. */
    static TreeSet<Long> doomed(long k, Iterable<Long> existing) {
        TreeSet<Long> doomed = new TreeSet<>();
        for (long j : existing) {
            boolean milestone = j % MILESTONE == 0 && j > k - MILESTONE_SPAN;
            if (j < k - KEEP_RECENT && !milestone) {
                doomed.add(j);
            }
        }
        return doomed;
    }

    private static long mix(long k, int id, long[] chunk) {
        long h = k * 0x9E3779B97F4A7C15L + id * 0xC2B2AE3D27D4EB4FL;
        for (long c : chunk) {
            h = (h ^ c) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h ^ (h >>> 29);
    }
}
