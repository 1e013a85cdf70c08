package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.ChunkIndexType;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.storage.TrackingOpener;

/**
 * Which chunk writes rewrite the dataset's object header: only those of an index whose records
 * live in the data layout message ({@link ChunkIndex#recordsInLayoutMessage}). A write to a
 * fixed array dataset changes the index's blocks, never the header, so a flush after it writes
 * no object header; a write to a single-chunk dataset records the chunk in the layout message,
 * so the flush writes the header. Counted by signature with {@link TrackingOpener}.
 */
class LayoutMessageRewriteTest {

    private static final String OBJECT_HEADER = "OHDR";

    @TempDir
    Path dir;

    @Test
    void aChunkWrittenIntoAFixedArrayLeavesTheObjectHeaderUnwritten() throws IOException {
        Map<String, Long> flushed = writesOfASecondChunk("fixed.h5",
                DatasetSpec.builder(Datatype.INT32, 8).chunkShape(2).build(),
                ChunkIndexType.FIXED_ARRAY, 2);
        assertFalse(flushed.containsKey(OBJECT_HEADER), flushed.toString());
        assertTrue(flushed.containsKey("FADB"), "the data block records the chunk: " + flushed);
    }

    @Test
    void aChunkWrittenIntoASingleChunkDatasetRewritesTheObjectHeader() throws IOException {
        Map<String, Long> flushed = writesOfASecondChunk("single.h5",
                DatasetSpec.builder(Datatype.INT32, 8).chunkShape(8).filter(Filter.deflate(6))
                        .build(), ChunkIndexType.SINGLE_CHUNK, 0);
        assertEquals(1L, flushed.get(OBJECT_HEADER), flushed.toString());
    }

    /**
     * Creates {@code spec}'s dataset, writes its first element and flushes, then writes the
     * element at {@code second} with other values and flushes again: the writes of that flush.
     * The dataset has the index {@code type}.
     */
    private Map<String, Long> writesOfASecondChunk(String name, DatasetSpec spec,
                                                   ChunkIndexType type, long second)
            throws IOException {
        TrackingOpener opener = new TrackingOpener();
        Path path = dir.resolve(name);
        try (Hdf5File file = Hdf5File.create(path, opener)) {
            Dataset dataset = file.root().createDataset("d", spec);
            dataset.write(new long[] {0}, new long[] {1}, ByteBuffer.wrap(new byte[] {1, 0, 0, 0}));
            file.flush();
            assertEquals(type, dataset.chunkIndexType());
            opener.resetCounts();
            dataset.write(new long[] {second}, new long[] {1}, ByteBuffer.wrap(new byte[] {9, 9, 9, 9}));
            file.flush();
            return opener.counts(path).writesBySignature();
        }
    }
}
