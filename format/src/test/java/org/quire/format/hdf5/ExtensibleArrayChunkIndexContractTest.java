package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.ExtensibleArrayDataBlock;
import org.quire.format.hdf5.layout.ExtensibleArrayGeometry;

/** The chunk index contract for the extensible array index (one unlimited dimension). */
class ExtensibleArrayChunkIndexContractTest extends WritableChunkIndexContract {

    private static final long U = DatasetSpec.UNLIMITED;

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.EXTENSIBLE_ARRAY;
    }

    /**
     * Unlimited first, 40,000 chunks: single elements in the index block, the first data
     * blocks, a super block's data blocks and the last, paged, data block.
     */
    @Override
    Case sparse() {
        return new Case("/sparse", DatasetSpec.builder(Datatype.FLOAT64, 0, 6).maxShape(U, 6)
                .chunkShape(1, 3).fillValue(-1.5).build(), new long[] {20_000, 6},
                List.of(Box.of(new long[] {0, 0}, new long[] {1, 1}),
                        Box.of(new long[] {1, 4}, new long[] {1, 2}),
                        Box.of(new long[] {10, 0}, new long[] {1, 3}),
                        Box.of(new long[] {300, 3}, new long[] {1, 1}),
                        Box.of(new long[] {19_999, 2}, new long[] {1, 1})),
                Box.whole(20_000, 6), type());
    }

    /**
     * Unlimited last, filtered, 140,000 chunks: the first 4,000 written (index block, data
     * blocks, super blocks), then the last 20, in a paged data block of super block 13.
     */
    @Override
    Case large() {
        return new Case("/large", DatasetSpec.builder(Datatype.INT64, 4, 0).maxShape(4, U)
                .chunkShape(2, 1).filter(Filter.fletcher32()).build(), new long[] {4, 70_000},
                List.of(Box.whole(4, 2000), Box.of(new long[] {0, 69_990}, new long[] {4, 10})),
                Box.whole(4, 70_000), type());
    }

    @Override
    void assertLargeStructure(Hdf5File file, ChunkIndex index) {
        ExtensibleArrayGeometry geometry = new ExtensibleArrayGeometry(
                (ChunkIndexParameters.ExtensibleArray) index.parameters());
        ExtensibleArrayGeometry.Location last = geometry.locate(139_999);
        assertTrue(new ExtensibleArrayDataBlock(geometry, ChunkRecordFormat.filtered(16),
                last.superBlock()).isPaged(), "the last chunk is in a paged data block");
    }
}
