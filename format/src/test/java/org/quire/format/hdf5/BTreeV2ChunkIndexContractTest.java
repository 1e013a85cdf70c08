package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.BTreeV2ChunkIndex;
import org.quire.format.hdf5.chunk.ChunkIndex;

/** The chunk index contract for the version-2 B-tree index (several unlimited dimensions). */
class BTreeV2ChunkIndexContractTest extends WritableChunkIndexContract {

    private static final long U = DatasetSpec.UNLIMITED;

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.VERSION_2_BTREE;
    }

    /** The chunks (i, j) with i + j even of 30 x 20: 300 records, several leaves. */
    @Override
    Case sparse() {
        List<Box> writes = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            for (int j = i % 2; j < 20; j += 2) {
                writes.add(Box.of(new long[] {2L * i, 3L * j}, new long[] {2, 3}));
            }
        }
        return new Case("/sparse", DatasetSpec.builder(Datatype.INT16, 0, 0).maxShape(U, U)
                .chunkShape(2, 3).fillValue(-2).build(), new long[] {60, 60}, writes,
                Box.whole(60, 60), type());
    }

    /** 3-D, filtered, 10,000 chunks: leaf and internal node splits, depth 2 or more. */
    @Override
    Case large() {
        return new Case("/large", DatasetSpec.builder(Datatype.INT32, 0, 5, 0)
                .maxShape(U, 5, U).chunkShape(1, 5, 1).filter(Filter.deflate(1)).build(),
                new long[] {100, 5, 100}, List.of(Box.whole(100, 5, 100)),
                Box.whole(100, 5, 100), type());
    }

    @Override
    void assertLargeStructure(Hdf5File file, ChunkIndex index) {
        int depth = ((BTreeV2ChunkIndex) index).depth();
        assertTrue(depth >= 2, "depth " + depth);
    }
}
