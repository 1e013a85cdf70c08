package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.hdf5.chunk.CorruptFileAssertions.assertCorrupt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;

/**
 * The fixed array index against its file and the metadata cache: the flush dependencies it
 * states, records changed after a flush written by the next one, pages released after each
 * use (so a small cache bound holds), and the client ID checked against the dataset's filters.
 */
class FixedArrayChunkIndexTest {

    /** Chunks of one 4-byte element: 8 KiB pages of 1,024 unfiltered entries. */
    private static final long CHUNK_BYTES = 4;
    /** Eight full pages. */
    private static final ChunkGrid PAGED = new ChunkGrid(new long[] {1}, new long[] {8 * 1024});
    /** One unpaged data block of 100 entries. */
    private static final ChunkGrid UNPAGED = new ChunkGrid(new long[] {1}, new long[] {100});

    @TempDir
    Path directory;
    private IndexTestFile indexFile;
    private BlockFile file;

    @BeforeEach
    void openFile() throws IOException {
        indexFile = IndexTestFile.create(directory.resolve("f"));
        file = indexFile.file();
    }

    @AfterEach
    void closeFile() throws IOException {
        indexFile.close();
    }

    private FixedArrayChunkIndex create(MetadataCache cache, ChunkGrid grid) throws IOException {
        return FixedArrayChunkIndex.create(indexFile.blocks(cache),
                ChunkRecordFormat.unfiltered(), grid, CHUNK_BYTES);
    }

    private FixedArrayChunkIndex open(MetadataCache cache, long address, ChunkGrid grid)
            throws IOException {
        return FixedArrayChunkIndex.open(indexFile.blocks(cache), address, grid,
                CHUNK_BYTES, false);
    }

    private ChunkRecord newChunk() throws IOException {
        return indexFile.chunk(CHUNK_BYTES);
    }

    @Test
    void theHeaderWaitsForTheDataBlockTheDataBlockForItsPagesAndEachBlockForItsChunks()
            throws IOException {
        MetadataCache cache = indexFile.cache(1 << 20);
        FixedArrayChunkIndex paged = create(cache, PAGED);
        FixedArrayChunkIndex unpaged = create(cache, UNPAGED);
        cache.flush(); // the headers on disk, to read their data block addresses
        FixedArrayHeader header = FixedArrayHeader.read(file, paged.address());
        FixedArrayDataBlock block = new FixedArrayDataBlock(header);
        assertTrue(cache.dependsOn(paged.address(), header.dataBlockAddress()));
        ChunkRecord chunk = newChunk();
        cache.insert(new ChunkProxy(chunk.address(), CHUNK_BYTES));
        paged.put(new long[] {1500}, chunk);
        long page = block.pageAddress(1);
        assertTrue(cache.dependsOn(header.dataBlockAddress(), page), "data block on page 1");
        assertTrue(cache.dependsOn(page, chunk.address()), "page 1 on its chunk");

        long unpagedBlock = FixedArrayHeader.read(file, unpaged.address()).dataBlockAddress();
        assertTrue(cache.dependsOn(unpaged.address(), unpagedBlock));
        ChunkRecord other = newChunk();
        cache.insert(new ChunkProxy(other.address(), CHUNK_BYTES));
        unpaged.put(new long[] {7}, other);
        assertTrue(cache.dependsOn(unpagedBlock, other.address()), "data block on its chunk");
    }

    @Test
    void aRecordPutAfterAFlushIsWrittenByTheNextOne() throws IOException {
        for (ChunkGrid grid : List.of(UNPAGED, PAGED)) {
            MetadataCache cache = indexFile.cache(1 << 20);
            FixedArrayChunkIndex index = create(cache, grid);
            ChunkRecord first = newChunk();
            ChunkRecord second = newChunk();
            index.put(new long[] {3}, first);
            cache.flush();
            index.put(new long[] {4}, second); // the same block or page, now clean
            cache.flush();
            FixedArrayChunkIndex reopened = open(indexFile.cache(1 << 20), index.address(), grid);
            assertEquals(first, reopened.get(new long[] {3}));
            assertEquals(second, reopened.get(new long[] {4}), "paged: " + grid.maxChunkCount());
        }
    }

    /**
     * A cache with room for the header, the data block and about two pages: writing, reading
     * and visiting one chunk in each of eight pages stays within it, because every page is
     * unprotected after use and can be evicted.
     */
    @Test
    void pagesAreReleasedAfterEachPutGetAndVisitSoTheCacheBoundHolds() throws IOException {
        long pageCharge = new FixedArrayDataBlock(new FixedArrayHeader(
                ChunkRecordFormat.unfiltered(), 10, PAGED.maxChunkCount(), 0)).pageSize(0)
                + MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
        long bound = 3 * pageCharge;
        MetadataCache writing = indexFile.cache(bound);
        FixedArrayChunkIndex index = create(writing, PAGED);
        List<ChunkRecord> written = new ArrayList<>();
        for (int page = 0; page < 8; page++) {
            ChunkRecord chunk = newChunk();
            written.add(chunk);
            index.put(new long[] {page * 1024L + page}, chunk);
            assertTrue(writing.accountedBytes() <= bound, "after the put in page " + page
                    + ": " + writing.accountedBytes() + " bytes");
        }
        writing.flush();

        MetadataCache reading = indexFile.cache(bound);
        FixedArrayChunkIndex looked = open(reading, index.address(), PAGED);
        for (int page = 0; page < 8; page++) {
            assertEquals(written.get(page), looked.get(new long[] {page * 1024L + page}));
            assertTrue(reading.accountedBytes() <= bound, "after the get in page " + page
                    + ": " + reading.accountedBytes() + " bytes");
        }

        MetadataCache visiting = indexFile.cache(bound);
        List<ChunkRecord> visited = new ArrayList<>();
        open(visiting, index.address(), PAGED).forEachStoredChunk((scaled, record) -> {
            visited.add(record);
            assertTrue(visiting.accountedBytes() <= bound, "visiting " + scaled[0] + ": "
                    + visiting.accountedBytes() + " bytes");
        });
        assertEquals(written, visited);
        assertTrue(visiting.peakAccountedBytes() <= bound,
                "peak " + visiting.peakAccountedBytes());
    }

    @Test
    void aClientIdOtherThanTheFiltersSayIsCorruptAtTheHeader() throws IOException {
        MetadataCache cache = indexFile.cache(1 << 20);
        FixedArrayChunkIndex unfiltered = create(cache, UNPAGED);
        FixedArrayChunkIndex filtered = FixedArrayChunkIndex.create(indexFile.blocks(cache),
                ChunkRecordFormat.filtered(CHUNK_BYTES), UNPAGED, CHUNK_BYTES);
        cache.flush();
        CorruptFileException asFiltered = assertThrows(CorruptFileException.class,
                () -> FixedArrayChunkIndex.open(indexFile.blocks(indexFile.cache(1 << 20)),
                        unfiltered.address(), UNPAGED, CHUNK_BYTES, true));
        String header = FixedArrayHeader.IDENTITY.structure();
        assertCorrupt(asFiltered, unfiltered.address(), header, "client ID",
                "1 (filtered chunks)", "0");
        CorruptFileException asUnfiltered = assertThrows(CorruptFileException.class,
                () -> FixedArrayChunkIndex.open(indexFile.blocks(indexFile.cache(1 << 20)),
                        filtered.address(), UNPAGED, CHUNK_BYTES, false));
        assertCorrupt(asUnfiltered, filtered.address(), header, "client ID",
                "0 (unfiltered chunks)", "1");
    }
}
