package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;

/**
 * A versioned file grows by what a commit adds (issue 11): its new chunks and its metadata,
 * within 10 % of what versioned-hdf5 1.7.0 adds for the same commit, with no alignment skips
 * (a 1 MiB chunk's slot aligned to 1 MiB after the last commit's metadata skipped nearly a
 * chunk's size per commit: a one-chunk commit added 2 MiB).
 */
@StartsOutsideProgram
class VersionedFileGrowthTest {

    private static final int CHUNKS = 16;
    /** 1 MiB chunks: a size the HDF5 writer aligns to 1 MiB unless told to pack. */
    private static final int ELEMENTS = 131_072;
    private static final long CHUNK_BYTES = ELEMENTS * 8L;
    private static final int ONE_CHUNK_COMMITS = 3;

    @TempDir
    Path dir;

    @Test
    void eachCommitAddsItsChunksAndLessThanATenthMoreThanVersionedHdf5Adds() throws IOException {
        ExternalTools.requireH5py();
        Map<String, Long> quire = quireGrowth(dir.resolve("quire.h5"));
        Map<String, Long> reference = referenceGrowth(dir.resolve("versioned-hdf5.h5"));
        assertEquals(reference.keySet(), quire.keySet());
        for (String version : quire.keySet()) {
            assertTrue(quire.get(version) < 1.1 * reference.get(version), version + " added "
                    + quire.get(version) + " bytes to Quire's file, " + reference.get(version)
                    + " to versioned-hdf5's");
        }
        // Metadata of a version of 16 mappings is a few KiB: an eighth of a chunk is far more.
        long create = quire.get("v1") - CHUNKS * CHUNK_BYTES;
        assertTrue(create >= 0 && create < CHUNK_BYTES / 8, "v1 added " + create
                + " bytes besides its " + CHUNKS + " chunks");
        for (int k = 2; k < ONE_CHUNK_COMMITS + 2; k++) {
            long metadata = quire.get("v" + k) - CHUNK_BYTES;
            assertTrue(metadata >= 0 && metadata < CHUNK_BYTES / 8, "v" + k + " added "
                    + metadata + " bytes besides its one chunk");
        }
    }

    /** The plan of versioned_growth.py, each version in its own open of the file. */
    private static Map<String, Long> quireGrowth(Path path) throws IOException {
        Map<String, Long> grown = new LinkedHashMap<>();
        VersionedFile.create(path).close();
        long[] values = LongStream.range(0, (long) CHUNKS * ELEMENTS).toArray();
        commit(path, "v1", grown, v -> v.createDataset("x", DatasetSpec.builder(Datatype.INT64,
                values.length).chunkShape(ELEMENTS).build(), VersionedFileTest.int64(values)));
        for (int k = 2; k < ONE_CHUNK_COMMITS + 2; k++) {
            long at = (7L * k % CHUNKS) * ELEMENTS;
            long value = -k;
            commit(path, "v" + k, grown, v -> v.dataset("x").write(new long[] {at},
                    new long[] {1}, new long[] {value}));
        }
        return grown;
    }

    private static void commit(Path path, String name, Map<String, Long> grown,
                               VersionedFile.Staging staging) throws IOException {
        long before = Files.size(path);
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit(name, staging);
        }
        grown.put(name, Files.size(path) - before);
    }

    private static Map<String, Long> referenceGrowth(Path path) {
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                VersionedInteropTest.resource("versioned_growth.py").toString(), path.toString(),
                Integer.toString(CHUNKS), Integer.toString(ELEMENTS),
                Integer.toString(ONE_CHUNK_COMMITS)), 300);
        if (result.output().contains("REQUIRED ORACLE MISSING")) {
            ExternalTools.missing("shared/tools/versioned-hdf5-1.7.0 (the reference client)");
        }
        assertEquals(0, result.exitCode(), result.output());
        Map<String, Long> grown = new LinkedHashMap<>();
        for (String line : result.stdout().lines().toList()) {
            String[] fields = line.split("\\|");
            if (fields[0].equals("GROW")) {
                grown.put(fields[1], Long.parseLong(fields[2]));
            }
        }
        return grown;
    }
}
