package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Files;

/**
 * The read part of the chunk index contract for the implicit index, which Quire reads but does
 * not write, on h5py's {@code fixed/implicit_2d} (10 x 13 in chunks of 3 x 4, maximum 12 x 20,
 * space allocated early: every chunk of the current shape is stored).
 */
class ImplicitChunkIndexContractTest extends ChunkIndexContract {

    private static final String DATASET = "fixed/implicit_2d";

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.IMPLICIT;
    }

    @Override
    Fixture fixture() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.CHUNKED);
        String[] record = fixtures.records("D").stream().filter(d -> d[1].equals(DATASET))
                .findFirst().orElseThrow();
        return new Fixture(fixtures.file("h5py.h5"), "/" + DATASET,
                Files.readAllBytes(fixtures.file(record[10])), 4 * 4);
    }
}
