package org.quire.examples.versions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import org.quire.format.hdf5.Datatype;
import org.quire.format.versioned.StagedDataset;
import org.quire.format.versioned.StagedVersion;
import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionedFile;

/**
 * The process {@link VersionKillRounds} kills: commits {@link VersionPlan}'s versions one after
 * the other on a versioned file, and after every {@value VersionPlan#DELETE_EVERY}-th deletes
 * the old ones the plan names, logging each step to a {@link VersionLog} before it starts and
 * after it returned. It continues a file it finds (after the current version), and stops by
 * itself after the given seconds (should its parent die without killing it).
 *
 * <pre>java -cp ... org.quire.examples.versions.VersionChurnWriter FILE LOG SECONDS</pre>
 */
final class VersionChurnWriter {

    private VersionChurnWriter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: VersionChurnWriter FILE LOG SECONDS");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        long stopAt = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        try (VersionedFile vf = Files.exists(file) ? VersionedFile.openForWriting(file)
                : VersionedFile.create(file);
             VersionLog log = new VersionLog(Path.of(args[1]))) {
            for (long k = VersionPlan.number(vf.currentVersion()) + 1; System.nanoTime() < stopAt; k++) {
                String name = VersionPlan.name(k);
                long version = k;
                log.append(new VersionLog.Entry(false, VersionLog.Kind.COMMIT, List.of(name)));
                vf.commit(name, staged -> stage(staged, version));
                log.append(new VersionLog.Entry(true, VersionLog.Kind.COMMIT, List.of(name)));
                if (VersionPlan.deletesAfter(k)) {
                    deleteOld(vf, log, k);
                }
            }
        }
    }

    /** Stages version {@code k} on version {@code k - 1}: creations, deletions, resizes, rewritten chunks. */
    private static void stage(StagedVersion staged, long k) throws IOException {
        for (VersionPlan.Series series : VersionPlan.SERIES) {
            if (!VersionPlan.exists(series, k)) {
                if (staged.datasetNames().contains(series.path())) {
                    staged.delete(series.path());
                }
                continue;
            }
            long[] shape = VersionPlan.shape(series, k);
            StagedDataset dataset;
            if (VersionPlan.exists(series, k - 1)) {
                dataset = staged.dataset(series.path());
                if (!Arrays.equals(dataset.shape(), shape)) {
                    dataset.resize(shape);
                }
            } else {
                dataset = staged.createDataset(series.path(), series.spec(shape), null);
            }
            for (long[] chunk : VersionPlan.chunks(series, shape)) {
                if (VersionPlan.rewrites(series, k, chunk)) {
                    writeChunk(dataset, series, k, chunk, shape);
                }
            }
        }
    }

    private static void writeChunk(StagedDataset dataset, VersionPlan.Series series, long k,
                                   long[] chunk, long[] shape) throws IOException {
        long[] start = new long[shape.length];
        long[] count = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            start[d] = chunk[d] * series.chunks()[d];
            count[d] = Math.min(series.chunks()[d], shape[d] - start[d]);
        }
        long rows = shape.length == 1 ? 1 : count[0];
        long columns = count[shape.length - 1];
        double[] values = new double[(int) (rows * columns)];
        for (long r = 0; r < rows; r++) {
            for (long c = 0; c < columns; c++) {
                long[] position = shape.length == 1 ? new long[] {start[0] + c}
                        : new long[] {start[0] + r, start[1] + c};
                values[(int) (r * columns + c)] = VersionPlan.value(series, k, position);
            }
        }
        if (series.type() == Datatype.FLOAT64) {
            dataset.write(start, count, values);
        } else {
            dataset.write(start, count, Arrays.stream(values).mapToLong(v -> (long) v).toArray());
        }
    }

    private static void deleteOld(VersionedFile vf, VersionLog log, long k) throws IOException {
        List<Long> existing = new ArrayList<>();
        for (VersionInfo info : vf.versions()) {
            existing.add(VersionPlan.number(info.name()));
        }
        TreeSet<Long> doomed = VersionPlan.doomed(k, existing);
        if (doomed.isEmpty()) {
            return;
        }
        List<String> names = doomed.stream().map(VersionPlan::name).toList();
        log.append(new VersionLog.Entry(false, VersionLog.Kind.DELETE, names));
        vf.deleteVersions(names.toArray(String[]::new));
        log.append(new VersionLog.Entry(true, VersionLog.Kind.DELETE, names));
    }
}
