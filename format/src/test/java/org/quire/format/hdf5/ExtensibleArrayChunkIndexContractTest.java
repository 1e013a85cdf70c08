package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ExtensibleArrayDataBlock;
import org.quire.format.hdf5.layout.ExtensibleArrayGeometry;
import org.quire.format.hdf5.layout.ExtensibleArrayHeader;
import org.quire.format.hdf5.layout.ExtensibleArrayIndexBlock;
import org.quire.format.hdf5.layout.ExtensibleArraySuperBlock;

/** The chunk index contract for the extensible array index (one unlimited dimension). */
class ExtensibleArrayChunkIndexContractTest extends WritableChunkIndexContract {

    private static final long U = DatasetSpec.UNLIMITED;

    /** Chunks of the sparse case: 2 per row of 100,000 rows. */
    private static final long SPARSE_LAST_CHUNK = 2 * 100_000 - 2;

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.EXTENSIBLE_ARRAY;
    }

    /**
     * Unlimited first, 200,000 chunks: single elements in the index block, the first data
     * blocks, a super block's data blocks and, at chunk (99,999, 0), a paged data block
     * ({@link #theSparseCaseReachesAPagedDataBlock}).
     */
    @Override
    Case sparse() {
        return new Case("/sparse", DatasetSpec.builder(Datatype.FLOAT64, 0, 6).maxShape(U, 6)
                .chunkShape(1, 3).fillValue(-1.5).build(), new long[] {100_000, 6},
                List.of(Box.of(new long[] {0, 0}, new long[] {1, 1}),
                        Box.of(new long[] {1, 4}, new long[] {1, 2}),
                        Box.of(new long[] {10, 0}, new long[] {1, 3}),
                        Box.of(new long[] {300, 3}, new long[] {1, 1}),
                        Box.of(new long[] {99_999, 2}, new long[] {1, 1})),
                Box.whole(100_000, 6), type());
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
    void assertLargeStructure(Hdf5File file, ChunkIndex index) throws IOException {
        assertInWrittenPage(file, index, 139_999, new long[] {1, 69_999}, 2 * 8);
    }

    @Test
    void theSparseCaseReachesAPagedDataBlock() throws IOException {
        Fixture fixture = fixture();
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            Dataset dataset = dataset(file, fixture);
            assertInWrittenPage(file, dataset.chunkIndex(), SPARSE_LAST_CHUNK, new long[] {99_999, 0}, 3 * 8);
        }
    }

    /**
     * Follows the structures written in {@code file}, header, index block, super block and data
     * block, to element {@code element} (the chunk {@code chunk}): its data block is paged, its
     * page marked written in the super block, and the page holds the record the index finds.
     */
    private static void assertInWrittenPage(Hdf5File file, ChunkIndex index, long element, long[] chunk,
                                            long unfilteredChunkSize) throws IOException {
        long headerAddress = index.address();
        ExtensibleArrayHeader header = ExtensibleArrayHeader.read(file.blocks(), headerAddress);
        ExtensibleArrayGeometry geometry = new ExtensibleArrayGeometry(header.parameters());
        ExtensibleArrayGeometry.Location at = geometry.locate(element);
        assertTrue(at.superBlock() >= geometry.firstIndexedSuperBlock(),
                "element " + element + " in super block " + at.superBlock() + ", which the index block points at");
        ExtensibleArrayIndexBlock indexBlock = ExtensibleArrayIndexBlock.read(file.blocks(),
                header.indexBlockAddress(), geometry, header.format(), headerAddress, unfilteredChunkSize);
        ExtensibleArraySuperBlock superBlock = ExtensibleArraySuperBlock.read(file.blocks(),
                indexBlock.superBlockAddresses()[at.superBlock() - geometry.firstIndexedSuperBlock()], geometry,
                at.superBlock(), header.format(), headerAddress);
        long dataBlockAddress = superBlock.dataBlockAddresses()[(int) at.dataBlock()];
        ExtensibleArrayDataBlock dataBlock = new ExtensibleArrayDataBlock(geometry, header.format(),
                at.superBlock());
        assertNull(dataBlock.read(file.blocks(), dataBlockAddress, headerAddress, at.dataBlock(),
                unfilteredChunkSize), "the data block holding element " + element + " is paged");
        long page = at.element() / geometry.pageElements();
        assertTrue(superBlock.pageWritten(geometry, at.dataBlock(), page), "page " + page + " marked written");
        ChunkRecord found = index.get(chunk);
        assertTrue(found.isWritten(), "chunk written: " + found);
        assertEquals(found, dataBlock.readPage(file.blocks(), dataBlockAddress, page,
                unfilteredChunkSize)[(int) (at.element() % geometry.pageElements())]);
    }
}
