package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Files;

/**
 * The read part of the chunk index contract for the version-1 B-tree index, which Quire reads
 * but does not write, on h5py's {@code /chunked/sheet} in its default, old format (two unlimited
 * dimensions, chunks stored only where written; libhdf5's own count of stored chunks).
 */
class BTreeV1ChunkIndexContractTest extends ChunkIndexContract {

    private static final String FILE = "legacy.h5";
    private static final String DATASET = "/chunked/sheet";

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.VERSION_1_BTREE;
    }

    @Override
    Fixture fixture() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LEGACY);
        String[] record = fixtures.manifest().stream().filter(d -> d[0].equals("D")
                && d[1].equals(FILE) && d[2].equals(DATASET)).findFirst().orElseThrow();
        return new Fixture(fixtures.file(FILE), DATASET,
                Files.readAllBytes(fixtures.file(record[9])), Long.parseLong(record[8]));
    }
}
