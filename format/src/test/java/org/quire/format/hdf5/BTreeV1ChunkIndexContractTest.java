package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.storage.TrackingOpener;

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

    /**
     * Lookups keep the 64 nodes used last: the paths to the first chunks of as many leaves as
     * make 64 nodes with the root and their parents are read once, and looked up again read
     * nothing; a path through one more leaf evicts the least recently used node, the first
     * leaf, which its next lookup reads again.
     */
    @Test
    void lookupsKeepTheSixtyFourNodesUsedLast() throws IOException {
        Fixture fixture = fixture();
        TrackingOpener opener = new TrackingOpener();
        try (Hdf5File file = Hdf5File.open(fixture.file(), opener, ChunkCacheSettings.NONE)) {
            Dataset dataset = dataset(file, fixture);
            long root = dataset.chunkIndex().address();
            BTreeV1Node<BTreeV1ChunkKey> rootNode = node(file, root);
            assertEquals(2, rootNode.level());
            // The first chunk of every leaf in order, and how many nodes the paths to the first
            // n of them hold: the root, their parents and the n leaves.
            List<Long> firstChunks = new ArrayList<>();
            List<Integer> pathNodes = new ArrayList<>();
            Set<Long> parents = new HashSet<>();
            for (long child : rootNode.children()) {
                BTreeV1Node<BTreeV1ChunkKey> parent = node(file, child);
                parents.add(child);
                for (long leaf : parent.children()) {
                    firstChunks.add(node(file, leaf).keys().get(0).offsets()[0]
                            / dataset.chunkShape()[0]);
                    pathNodes.add(1 + parents.size() + firstChunks.size());
                }
            }
            int held = pathNodes.indexOf(64) + 1;
            assertTrue(held > 0 && held < firstChunks.size(), "leaves reaching 64 nodes: " + held);
            ChunkIndex index = dataset.chunkIndex();
            Path path = fixture.file();
            for (long chunk : firstChunks.subList(0, held)) {
                assertTrue(index.get(new long[] {chunk}).isWritten());
            }
            long reads = opener.counts(path).reads();
            for (long chunk : firstChunks.subList(0, held)) {
                index.get(new long[] {chunk});
            }
            assertEquals(reads, opener.counts(path).reads(), "64 nodes held, none read again");
            index.get(new long[] {firstChunks.get(held)});
            long afterOneMore = opener.counts(path).reads();
            assertTrue(afterOneMore > reads, "the next leaf is read");
            index.get(new long[] {firstChunks.get(0)});
            assertTrue(opener.counts(path).reads() > afterOneMore, "the first leaf was evicted");
        }
    }

    private static BTreeV1Node<BTreeV1ChunkKey> node(Hdf5File file, long address)
            throws IOException {
        return BTreeV1Node.read(file.blocks(), address, BTreeV1ChunkKey.format(1),
                file.ranks().chunkNodeK());
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
