package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.ChunkIndexParameters;

/** The chunk index contract for the single chunk index (a dataset that is one chunk). */
class SingleChunkIndexContractTest extends WritableChunkIndexContract {

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.SINGLE_CHUNK;
    }

    /** Part of the one chunk written; the rest reads as the fill value. */
    @Override
    Case sparse() {
        return new Case("/sparse", DatasetSpec.builder(Datatype.INT32, 6, 4).chunkShape(6, 4)
                .fillValue(7).build(), new long[] {6, 4},
                List.of(Box.of(new long[] {1, 1}, new long[] {2, 2})), Box.whole(6, 4), type());
    }

    /** One deflated chunk of 512 KiB: its filtered size is in the layout message. */
    @Override
    Case large() {
        return new Case("/large", DatasetSpec.builder(Datatype.FLOAT64, 256, 256)
                .chunkShape(256, 256).filter(Filter.deflate(6)).build(), new long[] {256, 256},
                List.of(Box.whole(256, 256)), Box.whole(256, 256), type());
    }

    @Override
    void assertLargeStructure(Hdf5File file, ChunkIndex index) throws IOException {
        ChunkIndexParameters.SingleChunk single =
                (ChunkIndexParameters.SingleChunk) index.parameters();
        long stored = index.get(new long[] {0, 0}).storedSize();
        assertEquals(stored, single.filteredSize());
        assertTrue(stored < 256 * 256 * 8, "deflated to " + stored + " bytes");
    }
}
