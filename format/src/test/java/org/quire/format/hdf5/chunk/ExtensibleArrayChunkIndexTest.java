package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.hdf5.chunk.CorruptFileAssertions.assertCorrupt;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.ExtensibleArrayDataBlock;
import org.quire.format.hdf5.layout.ExtensibleArrayGeometry;
import org.quire.format.hdf5.layout.ExtensibleArrayIndexBlock;
import org.quire.format.hdf5.layout.ExtensibleArraySuperBlock;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.ExtensibleArrayHeader;
import org.quire.format.storage.OpenMode;

/**
 * The extensible array index on its own, beyond the chunk index contract
 * ({@code ExtensibleArrayChunkIndexContractTest}): the statistics its header carries (super
 * blocks, data blocks, their bytes, max index set, elements realized) against those libhdf5
 * wrote for the same elements; the flush dependencies along every path (index block, direct
 * data block, super block, paged data block), records changed after a flush written by the
 * next one, blocks released after each use so a small cache bound holds, the header checked
 * against the layout message, the capacity, and a header without index block.
 */
class ExtensibleArrayChunkIndexTest {

    /** The elements of an extensible array are one line, whatever the dataset's rank. */
    private static final ChunkGrid LINE = new ChunkGrid(new long[] {1},
            new long[] {DataspaceMessage.UNLIMITED});

    /** Chunks of 8 bytes (unfiltered records: addresses only). */
    private static final long CHUNK_BYTES = 8;
    private static final ExtensibleArrayGeometry GEOMETRY =
            new ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray.DEFAULT);

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

    private ExtensibleArrayChunkIndex create(MetadataCache cache) throws IOException {
        return ExtensibleArrayChunkIndex.create(indexFile.blocks(cache),
                ChunkRecordFormat.unfiltered(), LINE, CHUNK_BYTES);
    }

    private ExtensibleArrayChunkIndex open(MetadataCache cache, long address, boolean writable)
            throws IOException {
        return ExtensibleArrayChunkIndex.open(indexFile.blocks(cache), address, LINE,
                ChunkIndexParameters.ExtensibleArray.DEFAULT, CHUNK_BYTES, false, writable);
    }

    private ChunkRecord newChunk(MetadataCache cache) throws IOException {
        return indexFile.writtenChunk(cache, CHUNK_BYTES);
    }

    /** Element 2: in the index block. */
    private static final long IN_INDEX_BLOCK = 2;
    /** The first element of super block 1, a data block the index block points at. */
    private static final long DIRECT = 4 + GEOMETRY.startElement(1);
    /** The first element of the first super block the index block points at (unpaged). */
    private static final long INDEXED = 4 + GEOMETRY.startElement(GEOMETRY.firstIndexedSuperBlock());
    /** Page 0 of the first paged data block. */
    private static final long PAGED = 4 + GEOMETRY.startElement(firstPagedSuperBlock()) + 5;

    private static int firstPagedSuperBlock() {
        int s = 0;
        while (GEOMETRY.pagesPerDataBlock(s) == 0) {
            s++;
        }
        return s;
    }

    /** The blocks on the path to an element, read from the file as flushed. */
    private record BlockPath(long indexBlock, long superBlock, long dataBlock, long page) {
    }

    private BlockPath pathTo(long headerAddress, long element) throws IOException {
        ExtensibleArrayHeader header = ExtensibleArrayHeader.read(file, headerAddress);
        ExtensibleArrayIndexBlock indexBlock = ExtensibleArrayIndexBlock.read(file,
                header.indexBlockAddress(), GEOMETRY, header.format(), headerAddress, CHUNK_BYTES);
        ExtensibleArrayGeometry.Location at = GEOMETRY.locate(element);
        if (at.inIndexBlock()) {
            return new BlockPath(header.indexBlockAddress(), -1, -1, -1);
        }
        int s = at.superBlock();
        if (s < GEOMETRY.firstIndexedSuperBlock()) {
            return new BlockPath(header.indexBlockAddress(), -1, indexBlock.dataBlockAddresses()[
                    (int) (GEOMETRY.startDataBlock(s) + at.dataBlock())], -1);
        }
        long superBlock = indexBlock.superBlockAddresses()[s - GEOMETRY.firstIndexedSuperBlock()];
        long dataBlock = ExtensibleArraySuperBlock.read(file, superBlock, GEOMETRY, s,
                header.format(), headerAddress).dataBlockAddresses()[(int) at.dataBlock()];
        ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(GEOMETRY, header.format(), s);
        long page = layout.isPaged()
                ? layout.pageAddress(dataBlock, at.element() / GEOMETRY.pageElements()) : -1;
        return new BlockPath(header.indexBlockAddress(), superBlock, dataBlock, page);
    }

    @Test
    void eachBlockWaitsForTheBlocksAndChunksItPointsAt() throws IOException {
        assertTrue(GEOMETRY.pagesPerDataBlock(GEOMETRY.firstIndexedSuperBlock()) == 0);
        MetadataCache cache = indexFile.cache(1 << 24);
        ExtensibleArrayChunkIndex index = create(cache);
        long[] elements = {IN_INDEX_BLOCK, DIRECT, INDEXED, PAGED};
        for (long element : elements) {
            index.put(new long[] {element}, newChunk(cache));
        }
        cache.flush();
        BlockPath direct = pathTo(index.address(), DIRECT);
        BlockPath indexed = pathTo(index.address(), INDEXED);
        BlockPath paged = pathTo(index.address(), PAGED);
        assertTrue(cache.dependsOn(index.address(), direct.indexBlock()), "header on index block");
        assertTrue(cache.dependsOn(direct.indexBlock(), direct.dataBlock()),
                "index block on its data block");
        assertTrue(cache.dependsOn(indexed.indexBlock(), indexed.superBlock()),
                "index block on its super block");
        assertTrue(cache.dependsOn(indexed.superBlock(), indexed.dataBlock()),
                "super block on its data block");
        assertTrue(cache.dependsOn(paged.superBlock(), paged.page()), "super block on the page");

        // The chunks, put again now that the blocks' addresses are known.
        for (long element : elements) {
            ChunkRecord chunk = newChunk(cache);
            index.put(new long[] {element}, chunk);
            BlockPath path = pathTo(index.address(), element);
            long leaf = path.page() >= 0 ? path.page()
                    : path.dataBlock() >= 0 ? path.dataBlock() : path.indexBlock();
            assertTrue(cache.dependsOn(leaf, chunk.address()), "element " + element
                    + ": block " + leaf + " on its chunk");
        }
    }

    /**
     * After a flush, each change alone is written by the next flush, so each block marks
     * itself or its parent changed: a record in a flushed index block, data block and page; a
     * new super block (the index block points at it), a new page (its super block marks it),
     * a larger max index set and a new data block below it (the header's statistics).
     */
    @Test
    void eachChangeAfterAFlushIsWrittenByTheNextOne() throws IOException {
        MetadataCache cache = indexFile.cache(1 << 24);
        ExtensibleArrayChunkIndex index = create(cache);
        for (long element : new long[] {IN_INDEX_BLOCK, DIRECT, INDEXED, PAGED}) {
            index.put(new long[] {element}, newChunk(cache));
        }
        cache.flush();
        int indexed = GEOMETRY.firstIndexedSuperBlock();
        long[] later = {IN_INDEX_BLOCK + 1, DIRECT + 1, INDEXED + 1, PAGED + 1,
            4 + GEOMETRY.startElement(indexed + 1), // a new super block
            PAGED + GEOMETRY.pageElements(), // a new page of the same data block
            PAGED + GEOMETRY.pageElements() + 1, // only the max index set grows
            4 + GEOMETRY.startElement(2)}; // a new data block, below the max index set
        long maxIndexSet = PAGED + 1;
        for (long element : later) {
            ChunkRecord chunk = newChunk(cache);
            index.put(new long[] {element}, chunk);
            cache.flush();
            // Read back before the next change, which could rewrite the same block.
            assertEquals(chunk, open(indexFile.cache(1 << 24), index.address(), false)
                    .get(new long[] {element}), "element " + element);
            maxIndexSet = Math.max(maxIndexSet, element + 1);
            assertEquals(maxIndexSet, ExtensibleArrayHeader.read(file, index.address())
                    .statistics().maxIndexSet(), "max index set after element " + element);
        }
        ExtensibleArrayHeader.Statistics statistics =
                ExtensibleArrayHeader.read(file, index.address()).statistics();
        assertEquals(PAGED + GEOMETRY.pageElements() + 2, statistics.maxIndexSet());
        // Data blocks of super blocks 1 and 2, INDEXED's, PAGED's and the new super block's.
        assertEquals(5, statistics.dataBlocks());
    }

    /**
     * A cache with room for the header, the index block, the largest super block and about
     * three pages: writing, reading and visiting three chunks in pages of each of eight paged
     * super blocks stays within it, because every block is unprotected after use and can be
     * evicted.
     */
    @Test
    void blocksAreReleasedAfterEachPutGetAndVisitSoTheCacheBoundHolds() throws IOException {
        int firstPaged = firstPagedSuperBlock();
        int lastPaged = firstPaged + 7;
        ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(GEOMETRY,
                ChunkRecordFormat.unfiltered(), firstPaged);
        long bound = 3L * (layout.pageSize() + MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY)
                + ExtensibleArraySuperBlock.size(GEOMETRY, lastPaged)
                + ExtensibleArrayIndexBlock.size(GEOMETRY, ChunkRecordFormat.unfiltered())
                + new ExtensibleArrayDataBlock(GEOMETRY, ChunkRecordFormat.unfiltered(),
                        lastPaged).prefixSize()
                + ExtensibleArrayHeader.SIZE + 4 * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
        List<Long> elements = new ArrayList<>();
        for (int s = firstPaged; s <= lastPaged; s++) {
            long first = 4 + GEOMETRY.startElement(s);
            elements.add(first + 3);
            elements.add(first + GEOMETRY.pageElements() + 3);
            elements.add(first + GEOMETRY.dataBlockElements(s) + 3); // data block 1, page 0
        }
        MetadataCache writing = indexFile.cache(bound);
        ExtensibleArrayChunkIndex index = create(writing);
        List<ChunkRecord> written = new ArrayList<>();
        for (long element : elements) {
            ChunkRecord chunk = indexFile.chunk(CHUNK_BYTES);
            written.add(chunk);
            index.put(new long[] {element}, chunk);
            assertTrue(writing.accountedBytes() <= bound, "after the put of " + element
                    + ": " + writing.accountedBytes() + " bytes");
        }
        writing.flush();

        MetadataCache reading = indexFile.cache(bound);
        ExtensibleArrayChunkIndex looked = open(reading, index.address(), false);
        for (int i = 0; i < elements.size(); i++) {
            assertEquals(written.get(i), looked.get(new long[] {elements.get(i)}));
            assertTrue(reading.accountedBytes() <= bound, "after the get of "
                    + elements.get(i) + ": " + reading.accountedBytes() + " bytes");
        }

        MetadataCache visiting = indexFile.cache(bound);
        List<ChunkRecord> visited = new ArrayList<>();
        open(visiting, index.address(), false).forEachStoredChunk((scaled, record) -> {
            visited.add(record);
            assertTrue(visiting.accountedBytes() <= bound, "visiting " + scaled[0] + ": "
                    + visiting.accountedBytes() + " bytes");
        });
        assertEquals(written, visited);
        assertTrue(visiting.accountedBytes() <= bound, visiting.accountedBytes() + " bytes");

        // A cache that keeps nothing unprotected: only the index block, held for the index's
        // life, stays after the gets and the visit.
        MetadataCache none = indexFile.cache(1);
        ExtensibleArrayChunkIndex held = open(none, index.address(), false);
        for (long element : elements) {
            held.get(new long[] {element});
        }
        assertEquals(1, none.entryCount(), "entries after the gets");
        held.forEachStoredChunk((scaled, record) -> { });
        assertEquals(1, none.entryCount(), "entries after the visit");
    }

    @Test
    void theHeaderMustHoldTheLayoutMessagesParametersAndClientId() throws IOException {
        MetadataCache cache = indexFile.cache(1 << 20);
        ExtensibleArrayChunkIndex unfiltered = create(cache);
        ExtensibleArrayChunkIndex filtered = ExtensibleArrayChunkIndex.create(
                indexFile.blocks(cache), ChunkRecordFormat.filtered(CHUNK_BYTES), LINE,
                CHUNK_BYTES);
        cache.flush();
        ChunkIndexParameters.ExtensibleArray other =
                new ChunkIndexParameters.ExtensibleArray(32, 4, 4, 16, 9);
        CorruptFileException parameters = assertThrows(CorruptFileException.class,
                () -> ExtensibleArrayChunkIndex.open(indexFile.blocks(indexFile.cache(1 << 20)),
                        unfiltered.address(), LINE, other, CHUNK_BYTES, false, false));
        String header = ExtensibleArrayHeader.IDENTITY.structure();
        assertCorrupt(parameters, unfiltered.address(), header, "creation parameters",
                other + " (from the data layout message)",
                ChunkIndexParameters.ExtensibleArray.DEFAULT.toString());
        CorruptFileException asFiltered = assertThrows(CorruptFileException.class,
                () -> ExtensibleArrayChunkIndex.open(indexFile.blocks(indexFile.cache(1 << 20)),
                        unfiltered.address(), LINE, ChunkIndexParameters.ExtensibleArray.DEFAULT,
                        CHUNK_BYTES, true, false));
        assertCorrupt(asFiltered, unfiltered.address(), header, "client ID",
                "1 (filtered chunks)", "0");
        CorruptFileException asUnfiltered = assertThrows(CorruptFileException.class,
                () -> open(indexFile.cache(1 << 20), filtered.address(), false));
        assertCorrupt(asUnfiltered, filtered.address(), header, "client ID",
                "0 (unfiltered chunks)", "1");
    }

    /** libhdf5's defaults: 4 elements in the index block and 2^32 in the super blocks. */
    @Test
    void elementsFromTheCapacityOnAreUnwrittenAndRefused() throws IOException {
        long capacity = 4 + (1L << 32);
        assertEquals(capacity, GEOMETRY.capacity());
        MetadataCache cache = indexFile.cache(1 << 20);
        ExtensibleArrayChunkIndex index = create(cache);
        assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {capacity}));
        assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {capacity - 1}));
        ChunkRecord last = newChunk(cache);
        index.put(new long[] {capacity - 1}, last); // the last data block of the last super block
        assertEquals(last, index.get(new long[] {capacity - 1}));
        assertEquals(ChunkRecord.UNWRITTEN, index.get(new long[] {capacity}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> index.put(new long[] {capacity}, newChunk(cache)));
        assertEquals("chunk " + capacity + " is beyond the extensible array's capacity of "
                + capacity, e.getMessage());
    }

    /**
     * libhdf5 allocates the index block with the first element: a header without one reads as
     * empty, and a writable index creates it at its first put.
     */
    @Test
    void aHeaderWithoutIndexBlockIsEmptyUntilTheFirstPutCreatesIt() throws IOException {
        long address = file.allocate(ExtensibleArrayHeader.SIZE);
        file.write(address, new ExtensibleArrayHeader(ChunkRecordFormat.unfiltered(),
                ChunkIndexParameters.ExtensibleArray.DEFAULT,
                new ExtensibleArrayHeader.Statistics(0, 0, 0, 0, 0, 0), Addresses.UNDEFINED)
                .encode());
        ExtensibleArrayChunkIndex empty = open(indexFile.cache(1 << 20), address, false);
        assertEquals(ChunkRecord.UNWRITTEN, empty.get(new long[] {0}));
        assertEquals(ChunkRecord.UNWRITTEN, empty.get(new long[] {DIRECT}));
        List<long[]> visited = new ArrayList<>();
        empty.forEachStoredChunk((scaled, record) -> visited.add(scaled));
        assertTrue(visited.isEmpty());

        MetadataCache cache = indexFile.cache(1 << 20);
        ExtensibleArrayChunkIndex writable = open(cache, address, true);
        ChunkRecord chunk = newChunk(cache);
        writable.put(new long[] {1}, chunk);
        cache.flush();
        ExtensibleArrayHeader header = ExtensibleArrayHeader.read(file, address);
        assertTrue(Addresses.isDefined(header.indexBlockAddress()));
        assertEquals(2, header.statistics().maxIndexSet());
        assertEquals(chunk, open(indexFile.cache(1 << 20), address, false).get(new long[] {1}));
        assertFalse(open(indexFile.cache(1 << 20), address, false).get(new long[] {0}).isWritten());
    }

    /**
     * The four extensible arrays h5py 3.7.0 with libhdf5 1.10.8 wrote into the committed
     * fixture ({@code make_h5py_fixtures.py}: "grown", 600 chunks through the first super
     * blocks; "paged", 160 chunks up to element 199,999, in paged data blocks; "middle", a
     * 3-D dataset; "filtered", 72 filtered chunks): Quire, putting the same elements into a
     * new index, writes the same six statistics into its header.
     */
    @Test
    void theHeaderStatisticsAreThoseLibhdf5WroteForTheSameElements() throws IOException {
        Path fixture = fixture("make_h5py_fixtures/h5py.h5");
        List<Long> headers = signatures(fixture, "EAHD");
        assertEquals(4, headers.size(), "extensible array headers in " + fixture);
        try (IndexTestFile h5py = IndexTestFile.open(fixture, OpenMode.READ);
             IndexTestFile quire = IndexTestFile.create(directory.resolve("quire.h5"))) {
            BlockFile libhdf5File = h5py.file();
            IndexBlocks reading = h5py.blocks(h5py.cache(1 << 20));
            BlockFile quireFile = quire.file();
            MetadataCache writing = quire.cache(1 << 20);
            for (long address : headers) {
                ExtensibleArrayHeader libhdf5 = ExtensibleArrayHeader.read(libhdf5File, address);
                ExtensibleArrayChunkIndex written = ExtensibleArrayChunkIndex.open(reading,
                        address, LINE, libhdf5.parameters(), 1, libhdf5.format().filtered(),
                        false);
                Map<Long, ChunkRecord> elements = new TreeMap<>();
                written.forEachStoredChunk((scaled, record) -> elements.put(scaled[0], record));

                ExtensibleArrayChunkIndex index = ExtensibleArrayChunkIndex.create(
                        quire.blocks(writing), libhdf5.format(), LINE, 1);
                for (Map.Entry<Long, ChunkRecord> element : elements.entrySet()) {
                    index.put(new long[] {element.getKey()}, element.getValue());
                }
                writing.flush();
                assertEquals(libhdf5.statistics(),
                        ExtensibleArrayHeader.read(quireFile, index.address()).statistics(),
                        "the header at " + address + " (" + elements.size() + " elements)");
            }
        }
    }

    /** Where {@code signature} starts in {@code file} (each a block libhdf5 wrote there). */
    private static List<Long> signatures(Path file, String signature) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        byte[] wanted = signature.getBytes(StandardCharsets.US_ASCII);
        List<Long> found = new ArrayList<>();
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
            int j = 0;
            while (j < wanted.length && bytes[i + j] == wanted[j]) {
                j++;
            }
            if (j == wanted.length) {
                found.add((long) i);
            }
        }
        return found;
    }

    private static Path fixture(String name) {
        URL url = ExtensibleArrayChunkIndexTest.class.getResource("/hdf5/" + name);
        assertNotNull(url, "test resource hdf5/" + name);
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError("cannot turn " + url + " into a path", e);
        }
    }
}
