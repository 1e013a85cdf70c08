package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.FixedArrayHeader;

/** Which index a new dataset gets, and what opens the index a layout message names. */
class ChunkIndexesTest {

    private static final long U = -1;

    @TempDir
    Path directory;
    private IndexTestFile indexFile;
    private BlockFile file;
    private MetadataCache cache;

    @BeforeEach
    void openFile() throws IOException {
        indexFile = IndexTestFile.create(directory.resolve("f"));
        file = indexFile.file();
        cache = indexFile.cache(1 << 20);
    }

    @AfterEach
    void closeFile() throws IOException {
        indexFile.close();
    }

    private ChunkIndex create(long[] shape, long[] maxShape, long[] chunk) throws IOException {
        return ChunkIndexes.create(file, cache, shape, maxShape, chunk, 4, false);
    }

    @Test
    void aNewDatasetGetsTheIndexLibhdf5Chooses() throws IOException {
        assertInstanceOf(BTreeV2ChunkIndex.class,
                create(new long[] {1, 1}, new long[] {U, U}, new long[] {1, 1}));
        assertInstanceOf(ExtensibleArrayChunkIndex.class,
                create(new long[] {1, 1}, new long[] {4, U}, new long[] {1, 1}));
        assertInstanceOf(SingleChunkIndex.class,
                create(new long[] {4, 4}, new long[] {4, 4}, new long[] {4, 4}));
        assertInstanceOf(FixedArrayChunkIndex.class,
                create(new long[] {4, 4}, new long[] {4, 8}, new long[] {4, 4}));
        assertInstanceOf(FixedArrayChunkIndex.class,
                create(new long[] {4, 4}, new long[] {4, 4}, new long[] {4, 2}));
        assertInstanceOf(FixedArrayChunkIndex.class,
                create(new long[] {4, 2}, new long[] {4, 4}, new long[] {4, 2}));
    }

    /**
     * The chunk size field of filtered records is sized for the chunk's bytes (elements times
     * element size): chunks of 256 4-byte elements, 1,024 bytes, get 3 bytes, entries of 15
     * bytes, as h5py 3.7.0 with libhdf5 1.10.8 writes them (read from its FAHD header by hand,
     * 2026-11-26), which libhdf5 computes again from the layout when it reads the records.
     */
    @Test
    void filteredRecordsSizeTheirChunkSizeFieldForTheChunksBytes() throws IOException {
        ChunkIndex index = ChunkIndexes.create(file, cache, new long[] {1024},
                new long[] {1024}, new long[] {256}, 4, true);
        cache.flush();
        FixedArrayHeader header = FixedArrayHeader.read(file, index.address());
        assertEquals(3, header.format().chunkSizeWidth());
        assertEquals(15, header.format().entrySize());
    }

    @Test
    void theSkipListNeedsExactlyOneUnlimitedDimension() throws IOException {
        assertInstanceOf(SkipListChunkIndex.class, ChunkIndexes.create(file, cache,
                new long[] {1}, new long[] {U}, new long[] {1}, 4, false, true));
        for (long[] maxShape : new long[][] {{4, 4}, {U, U}}) {
            assertEquals("the skip list index needs exactly one unlimited dimension, not "
                    + (maxShape[0] == U ? 2 : 0), assertThrows(IllegalArgumentException.class,
                            () -> ChunkIndexes.create(file, cache, new long[] {1, 1}, maxShape,
                                    new long[] {1, 1}, 4, false, true)).getMessage());
        }
    }

    private ChunkIndex open(ChunkIndexParameters index, long address, long[] maxShape,
                            boolean filtered, boolean writable) throws IOException {
        return ChunkIndexes.open(file, cache, null, new DataLayoutMessage(new long[] {2, 2}, 4,
                index, address), new long[] {2, 2}, maxShape, filtered, writable);
    }

    @Test
    void anIndexNeverAllocatedReadsAsUnwrittenAndIsCreatedWithTheFirstWrite()
            throws IOException {
        for (ChunkIndexParameters index : new ChunkIndexParameters[] {
                ChunkIndexParameters.FixedArray.DEFAULT,
                ChunkIndexParameters.ExtensibleArray.DEFAULT,
                ChunkIndexParameters.BTreeV2.DEFAULT}) {
            ChunkIndex readOnly = open(index, Addresses.UNDEFINED, new long[] {4, U}, false,
                    false);
            assertInstanceOf(UnallocatedChunkIndex.class, readOnly);
            assertThrows(IllegalStateException.class,
                    () -> readOnly.put(new long[] {0, 0}, new ChunkRecord(64, 16, 0)));
        }
        ChunkIndex writable = open(ChunkIndexParameters.ExtensibleArray.DEFAULT,
                Addresses.UNDEFINED, new long[] {4, U}, false, true);
        writable.put(new long[] {1, 1}, new ChunkRecord(1 << 20, 16, 0));
        assertEquals(new ChunkRecord(1 << 20, 16, 0), writable.get(new long[] {1, 1}));
        assertEquals(ChunkIndexParameters.ExtensibleArray.DEFAULT, writable.parameters());
        assertTrue(writable.address() >= 64, "created in the file: " + writable.address());
    }

    @Test
    void anUnallocatedIndexOfOtherParametersIsOnlyRead() throws IOException {
        ChunkIndexParameters.FixedArray other = new ChunkIndexParameters.FixedArray(9);
        assertInstanceOf(UnallocatedChunkIndex.class,
                open(other, Addresses.UNDEFINED, new long[] {4, 4}, false, false));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> open(other, Addresses.UNDEFINED, new long[] {4, 4}, false, true));
        assertEquals("chunk index (writing)", e.structure());
        assertEquals("an index not allocated yet, with " + other, e.found());
    }

    @Test
    void aSingleChunkIsStoredInTheFilteredSizeOrTheChunksSize() throws IOException {
        ChunkIndexParameters.SingleChunk single = new ChunkIndexParameters.SingleChunk(11, 2);
        assertEquals(new ChunkRecord(640, 11, 2), open(single, 640, new long[] {2, 2}, true,
                false).get(new long[] {0, 0}));
        assertEquals(new ChunkRecord(640, 16, 2), open(single, 640, new long[] {2, 2}, false,
                false).get(new long[] {0, 0}));
    }

    @Test
    void implicitIndexesAreNotWritten() {
        ChunkIndexParameters index = new ChunkIndexParameters.Implicit();
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> open(index, 64, new long[] {2, 2}, false, true));
        assertEquals("chunk index (writing)", e.structure());
        assertEquals(64, e.offset());
        assertEquals(index.toString(), e.found());
    }

    @Test
    void aSkipListOfAnotherThanOneUnlimitedDimensionIsCorrupt() {
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(
                new ChunkIndexParameters.SkipList(6, 32), 64, new long[] {2, 2}, false, false));
        assertEquals("data layout message", e.structure());
        assertEquals(64, e.offset());
        assertEquals("an index for the dataspace's 0 unlimited dimensions", e.expected());
    }
}
