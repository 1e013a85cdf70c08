package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;

/**
 * The read part of the chunk index contract for the version-1 B-tree index, which Quire reads
 * but does not write, on h5py's {@code /chunked/sheet} in its default, old format (two unlimited
 * dimensions, chunks stored only where written; libhdf5's own count of stored chunks).
 */
class BTreeV1ChunkIndexContractTest extends ChunkIndexContract {

    private static final String FILE = "legacy.h5";
    private static final String DATASET = "/chunked/sheet";

    @TempDir
    static Path dir;
    private static List<String[]> manifest;

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.VERSION_1_BTREE;
    }

    @Override
    Fixture fixture() throws IOException {
        synchronized (BTreeV1ChunkIndexContractTest.class) {
            if (manifest == null) {
                manifest = H5pyLegacyFilesInQuireTest.generate(dir);
            }
        }
        String[] record = manifest.stream().filter(d -> d[0].equals("D") && d[1].equals(FILE)
                && d[2].equals(DATASET)).findFirst().orElseThrow();
        return new Fixture(dir.resolve(FILE), DATASET, Files.readAllBytes(dir.resolve(record[9])),
                Long.parseLong(record[8]));
    }
}
