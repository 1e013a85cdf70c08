package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;

/**
 * The read part of the chunk index contract for the version-1 B-tree index, which Quire reads
 * but does not write, on h5py's files in its default, old format: {@code /chunked/resizable}
 * (grown 1-D, 5,000 chunks in nodes of at most 64: a tree of three levels) and, nested,
 * {@code /chunked/sheet} (two unlimited dimensions, chunks stored only where written: one leaf).
 * The stored chunk counts are libhdf5's own.
 */
class BTreeV1ChunkIndexContractTest extends ChunkIndexContract {

    private static final String FILE = "legacy.h5";

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.VERSION_1_BTREE;
    }

    @Override
    Fixture fixture() throws IOException {
        return legacyFixture("/chunked/resizable");
    }

    /** The descent through internal nodes is what the contract exercises here. */
    @Test
    void theRootIsAnInternalNode() throws IOException {
        Fixture fixture = fixture();
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            Dataset dataset = dataset(file, fixture);
            BTreeV1Node<BTreeV1ChunkKey> root = BTreeV1Node.read(file.blocks(), dataset.chunkIndex().address(),
                    BTreeV1ChunkKey.format(dataset.chunkShape().length), file.ranks().chunkNodeK());
            assertTrue(root.level() >= 1, "root level " + root.level());
        }
    }

    /** The same contract on a sparse dataset: chunks never written are found unwritten. */
    @Nested
    class SparseSheet extends ChunkIndexContract {

        @Override
        ChunkIndexType type() {
            return ChunkIndexType.VERSION_1_BTREE;
        }

        @Override
        Fixture fixture() throws IOException {
            return legacyFixture("/chunked/sheet");
        }
    }

    private static Fixture legacyFixture(String dataset) throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LEGACY);
        String[] record = fixtures.manifest().stream().filter(d -> d[0].equals("D")
                && d[1].equals(FILE) && d[2].equals(dataset)).findFirst().orElseThrow();
        return new Fixture(fixtures.file(FILE), dataset,
                Files.readAllBytes(fixtures.file(record[9])), Long.parseLong(record[8]));
    }
}
