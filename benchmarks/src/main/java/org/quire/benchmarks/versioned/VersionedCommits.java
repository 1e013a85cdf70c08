package org.quire.benchmarks.versioned;

import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.versioned.StagedDataset;
import org.quire.format.versioned.StagedVersion;
import org.quire.format.versioned.VersionedFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Commit time and bytes added per version of {@link VersionPlan}, for
 * {@code benchmarks/versions.sh}:
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.versioned.VersionedCommits DIRECTORY MIB REPEATS
 * </pre>
 *
 * Each repeat writes a new {@code DIRECTORY/quire.h5}. Timed per version: the whole
 * {@code VersionedFile.commit} call, staging included (writing the chunks into the staged dataset,
 * which reads from the parent only the chunks a write covers in part, then hashing, storing, the
 * version's metadata, the flush). The file is opened before and closed after the timed call; the size of the file and
 * the rows of {@code /_version_data/x/raw_data} are taken after the close. An untimed run of the
 * same plan on 16 MiB comes first (JIT warm-up). One line per commit:
 *
 * <pre>
 * result op=commit library=quire version=one_percent seconds=0.123 bytes_added=10487808 rows_added=1310720 changed_chunks=10 chunks=1024
 * </pre>
 */
public final class VersionedCommits {

    private static final int WARM_UP_MIB = 16;

    private VersionedCommits() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: VersionedCommits DIRECTORY MIB REPEATS");
        }
        Path directory = Path.of(args[0]);
        int mib = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        Path file = directory.resolve("quire.h5");
        run(file, Math.min(WARM_UP_MIB, mib), false);
        for (int repeat = 0; repeat < repeats; repeat++) {
            run(file, mib, true);
        }
    }

    private static void run(Path file, int chunks, boolean print) throws IOException {
        Files.deleteIfExists(file);
        VersionedFile.create(file).close();
        for (String version : VersionPlan.VERSIONS) {
            long sizeBefore = Files.size(file);
            long rowsBefore = rawDataRows(file);
            long seconds;
            try (VersionedFile versioned = VersionedFile.openForWriting(file)) {
                long start = System.nanoTime();
                versioned.commit(version, staged -> stage(staged, version, chunks));
                seconds = System.nanoTime() - start;
            }
            int changed = switch (version) {
                case "create", "all" -> chunks;
                case "one_percent" -> VersionPlan.changedChunks(chunks);
                default -> 0;
            };
            if (print) {
                System.out.printf("result op=commit library=quire version=%s seconds=%.6f bytes_added=%d"
                                + " rows_added=%d changed_chunks=%d chunks=%d%n", version, seconds / 1e9,
                        Files.size(file) - sizeBefore, rawDataRows(file) - rowsBefore, changed, chunks);
            }
        }
    }

    private static void stage(StagedVersion staged, String version, int chunks) throws IOException {
        double[] chunk = new double[VersionPlan.CHUNK_ELEMENTS];
        switch (version) {
            case "create" -> {
                StagedDataset x = staged.createDataset("x", DatasetSpec.builder(Datatype.FLOAT64,
                        (long) chunks * VersionPlan.CHUNK_ELEMENTS).chunkShape(VersionPlan.CHUNK_ELEMENTS).build(), null);
                writeChunks(x, chunk, chunks, 0);
            }
            case "untouched" -> {
            }
            case "same" -> writeChunks(staged.dataset("x"), chunk, chunks, 0);
            case "one_percent" -> {
                StagedDataset x = staged.dataset("x");
                int changed = VersionPlan.changedChunks(chunks);
                for (int k = 0; k < changed; k++) {
                    int c = VersionPlan.changedChunk(k, chunks, changed);
                    VersionPlan.fill(chunk, c, 1);
                    x.write(new long[] {(long) c * VersionPlan.CHUNK_ELEMENTS}, new long[] {chunk.length}, chunk);
                }
            }
            case "all" -> writeChunks(staged.dataset("x"), chunk, chunks, 2);
            default -> throw new IllegalArgumentException(version);
        }
    }

    private static void writeChunks(StagedDataset x, double[] chunk, int chunks, int generation) throws IOException {
        for (int c = 0; c < chunks; c++) {
            VersionPlan.fill(chunk, c, generation);
            x.write(new long[] {(long) c * VersionPlan.CHUNK_ELEMENTS}, new long[] {chunk.length}, chunk);
        }
    }

    /** Rows of {@code /_version_data/x/raw_data}, 0 before the dataset's first commit. */
    private static long rawDataRows(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            var data = hdf5.root().group("_version_data");
            return data.contains("x") ? data.group("x").dataset("raw_data").shape()[0] : 0;
        }
    }
}
