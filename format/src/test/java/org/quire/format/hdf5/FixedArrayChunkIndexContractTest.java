package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;

import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;
import org.quire.format.hdf5.layout.PageBitmap;

/** The chunk index contract for the fixed array index (no unlimited dimension). */
class FixedArrayChunkIndexContractTest extends WritableChunkIndexContract {

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.FIXED_ARRAY;
    }

    /** Three of 3 x 3 x 2 chunks of a 3-D dataset, partly; chunks not dividing the shape. */
    @Override
    Case sparse() {
        return new Case("/sparse", DatasetSpec.builder(Datatype.INT32, 8, 9, 10)
                .chunkShape(3, 4, 5).fillValue(3).build(), new long[] {8, 9, 10},
                List.of(Box.of(new long[] {0, 0, 0}, new long[] {2, 2, 2}),
                        Box.of(new long[] {6, 4, 5}, new long[] {2, 3, 3}),
                        Box.of(new long[] {3, 8, 0}, new long[] {1, 1, 5})),
                Box.whole(8, 9, 10), type());
    }

    /**
     * 5,000 chunks of one element: a data block of five pages of 1,024 entries, filtered
     * records; pages 0 (in part), 2 and 4 (the short last page) written, 1 and 3 never
     * ({@link #assertLargeStructure} reads the page bitmap written).
     */
    @Override
    Case large() {
        return new Case("/large", DatasetSpec.builder(Datatype.INT64, 5000).chunkShape(1)
                .fillValue(-1).filter(Filter.fletcher32()).build(), new long[] {5000},
                List.of(Box.of(new long[] {0}, new long[] {1000}),
                        Box.of(new long[] {2048}, new long[] {1024}),
                        Box.of(new long[] {4096}, new long[] {904})), Box.whole(5000), type());
    }

    @Override
    void assertLargeStructure(Hdf5File file, ChunkIndex index) throws IOException {
        FixedArrayDataBlock block = new FixedArrayDataBlock(
                FixedArrayHeader.read(file.blocks(), index.address()));
        assertTrue(block.isPaged());
        assertEquals(5, block.pageCount());
        byte[] bitmap = block.read(file.blocks(), index.address(), 8).pageBitmap();
        List<Integer> written = IntStream.range(0, block.pageCount()).filter(page -> PageBitmap.get(bitmap, page))
                .boxed().toList();
        assertEquals(List.of(0, 2, 4), written, "pages marked written");
    }
}
