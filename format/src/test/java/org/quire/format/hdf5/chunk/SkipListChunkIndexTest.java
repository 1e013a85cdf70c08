package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quire.format.hdf5.chunk.CorruptFileAssertions.assertCorrupt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.SkipListConfiguration;
import org.quire.format.hdf5.layout.SkipListGeometry;
import org.quire.format.hdf5.layout.SkipListSupernode;
import org.quire.format.hdf5.layout.SkipListTail;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;
import org.quire.format.storage.TrackingOpener;

/**
 * The skip list index on its own, beyond the chunk index contract
 * ({@code SkipListChunkIndexContractTest}), on a file holding only the index, its blocks
 * going through a metadata cache without journal, so the order of the in-place writes is what
 * is tested: deterministic heights and links, two writes per append, lookups whose reads grow
 * with the logarithm of the distance from the end, forward iteration reading each supernode
 * once, and a killed writer at every write of a run of appends.
 */
class SkipListChunkIndexTest {

    private static final long[] CHUNK = {1};
    private static final long[] MAX = {-1};
    private static final int ELEMENT_SIZE = 16;
    private static final Path FILE = Path.of("skip.idx");
    private static final long CACHE_BYTES = 1 << 20;

    @TempDir
    Path dir;

    /** A file holding one skip list index (unfiltered chunks of 16 bytes), and its cache. */
    private record IndexFile(IndexTestFile file, MetadataCache cache, ChunkIndex index)
            implements AutoCloseable {
        void append(long chunk) throws IOException {
            index.put(new long[] {chunk}, record(chunk));
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** Where chunk {@code chunk} is said to be: a made-up address, distinct per chunk. */
    private static ChunkRecord record(long chunk) {
        return new ChunkRecord(1_000_000_000L + chunk * ELEMENT_SIZE, ELEMENT_SIZE, 0);
    }

    private static IndexFile create(StorageOpener opener, Path path) throws IOException {
        IndexTestFile file = IndexTestFile.open(opener, path, OpenMode.CREATE_NEW);
        MetadataCache cache = file.cache(CACHE_BYTES);
        ChunkIndex index = ChunkIndexes.create(file.file(), cache, new long[] {0}, MAX, CHUNK,
                ELEMENT_SIZE, false, true);
        return new IndexFile(file, cache, index);
    }

    /** A new index in {@code path} holding chunks 0 to {@code chunks} - 1, flushed; its address. */
    private static long writeIndex(Path path, long chunks) throws IOException {
        try (IndexFile written = create(new TrackingOpener(), path)) {
            for (long c = 0; c < chunks; c++) {
                written.append(c);
            }
            written.cache().flush();
            return written.index().address();
        }
    }

    /** The layout message of a skip list of {@code geometry} at {@code address}. */
    private static DataLayoutMessage layout(SkipListGeometry geometry, long address) {
        return new DataLayoutMessage(CHUNK, ELEMENT_SIZE, new ChunkIndexParameters.SkipList(
                geometry.supernodeBits(), geometry.maxHeight()), address);
    }

    /** The index at {@code address} of {@code path}, read only. */
    private static IndexFile open(StorageOpener opener, Path path, long address)
            throws IOException {
        return open(opener, path, address, SkipListGeometry.DEFAULT);
    }

    /** The index at {@code address} of {@code path}, of {@code geometry}, read only. */
    private static IndexFile open(StorageOpener opener, Path path, long address,
                                  SkipListGeometry geometry) throws IOException {
        IndexTestFile file = IndexTestFile.open(opener, path, OpenMode.READ);
        MetadataCache cache = file.cache(CACHE_BYTES);
        return new IndexFile(file, cache, ChunkIndexes.open(file.file(), cache, null,
                layout(geometry, address), new long[] {Long.MAX_VALUE >> 8}, MAX, false, false));
    }

    private static List<Long> visited(ChunkIndex index) throws IOException {
        List<Long> chunks = new ArrayList<>();
        index.forEachStoredChunk((scaled, found) -> {
            assertEquals(record(scaled[0]), found, "chunk " + scaled[0]);
            chunks.add(scaled[0]);
        });
        return chunks;
    }

    @Test
    void heightsAreOnePlusTheTrailingZerosOfTheOrdinalPlusOneCappedAtTheMaximum() {
        SkipListGeometry small = new SkipListGeometry(6, 3);
        int[] heights = new int[16];
        for (int s = 0; s < heights.length; s++) {
            heights[s] = small.height(s);
        }
        assertArrayEquals(new int[] {1, 2, 1, 3, 1, 2, 1, 3, 1, 2, 1, 3, 1, 2, 1, 3}, heights);
        SkipListGeometry geometry = SkipListGeometry.DEFAULT;
        assertEquals(32, geometry.height((1L << 40) - 1));
        assertEquals(32, geometry.height(SkipListGeometry.GHOST));
        assertEquals(3, geometry.predecessor(5, 1));
        assertEquals(3, geometry.predecessor(5, 2));
        assertEquals(SkipListGeometry.GHOST, geometry.predecessor(5, 3));
        assertEquals(7, geometry.predecessor(8, 3));
        assertEquals(64, geometry.recordsPerSupernode());
        assertEquals(2, geometry.supernodeOf(128));
        assertEquals(63, geometry.slotOf(127));
    }

    /**
     * The same appends give the same bytes (no randomness anywhere), and every supernode on
     * disk has the height its ordinal gives and links where the geometry says: checked by the
     * reader (ordinal and height of every supernode a link leads to) and by forward iteration
     * (every link's address, the tail's too).
     */
    @Test
    void theSameAppendsWriteTheSameBytesWithTheDerivedHeightsAndLinks() throws IOException {
        long chunks = 64 * 300 + 5;
        List<byte[]> images = new ArrayList<>();
        long address = -1;
        for (String name : List.of("a.idx", "b.idx")) {
            Path path = dir.resolve(name);
            try (IndexFile written = create(new TrackingOpener(), path)) {
                for (long c = 0; c < chunks; c++) {
                    written.append(c);
                    if (c % 1000 == 0) {
                        written.cache().flush();
                    }
                }
                written.cache().flush();
                address = written.index().address();
            }
            images.add(Files.readAllBytes(path));
        }
        assertArrayEquals(images.get(0), images.get(1));
        try (IndexFile read = open(new TrackingOpener(), dir.resolve("a.idx"), address)) {
            List<Long> visited = visited(read.index());
            assertEquals(chunks, visited.size());
            for (int i = 0; i < visited.size(); i++) {
                assertEquals(i, visited.get(i), "chunks visited in order");
            }
            for (long c = 0; c < chunks; c += 97) {
                assertEquals(record(c), read.index().get(new long[] {c}));
            }
            assertFalse(read.index().get(new long[] {chunks}).isWritten());
        }
    }

    /**
     * A layout message naming the skip list for a dataspace with no unlimited dimension, or
     * two, is a corrupt file (the index numbers chunks along exactly one).
     */
    @Test
    void aSkipListForAnyOtherThanOneUnlimitedDimensionIsCorrupt() throws IOException {
        Path path = dir.resolve("dimensions.idx");
        long address = writeIndex(path, 1);
        for (long[] maxShape : List.of(new long[] {-1, -1}, new long[] {8, 8})) {
            try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path,
                    OpenMode.READ)) {
                MetadataCache cache = file.cache(CACHE_BYTES);
                DataLayoutMessage layout = new DataLayoutMessage(new long[] {1, 1}, ELEMENT_SIZE,
                        new ChunkIndexParameters.SkipList(6, 32), address);
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> ChunkIndexes.open(file.file(), cache, null, layout,
                                new long[] {1, 1}, maxShape, false, false));
                assertTrue(e.getMessage().contains("the skip list, which needs exactly one"),
                        e.getMessage());
            }
        }
    }

    /** Parameters in the layout message that disagree with the configuration node: corrupt. */
    @Test
    void layoutParametersThatDisagreeWithTheConfigurationAreCorrupt() throws IOException {
        Path path = dir.resolve("parameters.idx");
        long address = writeIndex(path, 0);
        try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path, OpenMode.READ)) {
            MetadataCache cache = file.cache(CACHE_BYTES);
            DataLayoutMessage layout = new DataLayoutMessage(CHUNK, ELEMENT_SIZE,
                    new ChunkIndexParameters.SkipList(5, 32), address);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ChunkIndexes.open(file.file(), cache, null, layout, new long[] {0},
                            MAX, false, false));
            assertTrue(e.getMessage().contains("skip list configuration")
                    && e.getMessage().contains("supernode bits and max height"), e.getMessage());
        }
    }

    /** Wherever the allocation stands, a tail of any height lies inside one 512-byte sector. */
    @Test
    void theTailNeverCrossesASectorBoundary() throws IOException {
        for (int height : new int[] {1, 32, SkipListGeometry.MAX_HEIGHT}) {
            SkipListGeometry geometry = new SkipListGeometry(6, height);
            int size = SkipListTail.size(geometry);
            for (int before = 0; before < 1100; before += 7) {
                CrashSimulator disk = new CrashSimulator();
                try (BlockFile file = new BlockFile(disk.open(FILE, OpenMode.CREATE_NEW))) {
                    file.allocate(before);
                    long at = SkipListTail.allocate(file, geometry);
                    assertTrue(at >= before && at - before < SkipListTail.SECTOR_SIZE);
                    assertEquals(at / SkipListTail.SECTOR_SIZE,
                            (at + size - 1) / SkipListTail.SECTOR_SIZE,
                            "tail of " + size + " bytes at " + at);
                    assertEquals(at + size, file.endOfAllocation());
                }
            }
        }
    }

    /** A write far past the end is refused before it changes anything. */
    @Test
    void aWriteTooFarPastTheEndIsRefused() throws IOException {
        try (IndexFile index = create(new TrackingOpener(), dir.resolve("far.idx"))) {
            index.append(0);
            long far = 64 * (SkipListChunkIndex.MAX_SUPERNODES_CREATED_AT_ONCE + 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> index.append(far));
            assertTrue(e.getMessage().contains("chunk " + far + " is " + (far - 1)
                    + " chunks past the end"), e.getMessage());
            assertEquals(1, ((SkipListChunkIndex) index.index()).chunkCount());
            index.append(64 * SkipListChunkIndex.MAX_SUPERNODES_CREATED_AT_ONCE - 1);
            assertEquals(64 * SkipListChunkIndex.MAX_SUPERNODES_CREATED_AT_ONCE,
                    ((SkipListChunkIndex) index.index()).chunkCount());
        }
    }

    /** With a flush after each, every append writes one supernode and then the tail. */
    @Test
    void everyAppendWritesItsSupernodeThenTheTail() throws IOException {
        TrackingOpener opener = new TrackingOpener();
        Path path = dir.resolve("appends.idx");
        try (IndexFile index = create(opener, path)) {
            index.cache().flush();
            for (long c = 0; c < 64 * 5 + 3; c++) {
                opener.resetCounts();
                index.append(c);
                index.cache().flush();
                TrackingOpener.Counts counts = opener.counts(path);
                assertEquals(Map.of("QSLN", 1L, "QSLT", 1L), counts.writesBySignature(),
                        "chunk " + c);
            }
        }
    }

    /**
     * A cold lookup (the index just opened: configuration and tail read) reads at most two
     * supernodes per level below the tail's: logarithmic in the number of supernodes; the
     * newest chunks take one read. Forward iteration reads each supernode once, and the ghost.
     */
    @Test
    void aColdLookupReadsLogarithmicallyManySupernodesAndIterationEachOnce() throws IOException {
        long chunks = 64 * 1000;
        Path path = dir.resolve("lookups.idx");
        long address = writeIndex(path, chunks);
        int bound = 2 * (64 - Long.numberOfLeadingZeros(1000));
        for (long c = 0; c < chunks; c += 611) {
            TrackingOpener opener = new TrackingOpener();
            try (IndexFile read = open(opener, path, address)) {
                assertEquals(2, opener.counts(path).reads(), "configuration and tail");
                opener.resetCounts();
                assertEquals(record(c), read.index().get(new long[] {c}));
                long reads = opener.counts(path).reads();
                assertTrue(reads >= 1 && reads <= bound, "chunk " + c + ": " + reads
                        + " reads, bound " + bound);
            }
        }
        TrackingOpener opener = new TrackingOpener();
        try (IndexFile read = open(opener, path, address)) {
            opener.resetCounts();
            assertEquals(record(chunks - 1), read.index().get(new long[] {chunks - 1}));
            assertEquals(1, opener.counts(path).reads(), "the newest chunk");
        }
        try (IndexFile read = open(opener, path, address)) {
            opener.resetCounts();
            assertEquals(chunks, visited(read.index()).size());
            assertEquals(1000 + 1, opener.counts(path).reads(), "each supernode and the ghost");
        }
    }

    /**
     * A killed writer at every write of appends (one per flush, across four supernodes, then
     * a jump that creates empty ones): the index then holds exactly the chunks of the tail it
     * finds, 0 to count - 1, and that count is the last flush's or the one in progress's.
     */
    @Test
    void aKilledWriterLeavesExactlyTheChunksOfTheLastWrittenTail() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        List<long[]> flushes = new ArrayList<>(); // {events when it returned, chunk count}
        long address;
        int created;
        try (IndexFile written = create(simulator, FILE)) {
            written.cache().flush();
            created = simulator.eventCount();
            flushes.add(new long[] {created, 0});
            List<Long> appends = new ArrayList<>();
            for (long c = 0; c < 64 * 4 + 2; c++) {
                appends.add(c);
            }
            appends.add(64L * 20);
            for (long c : appends) {
                written.append(c);
                written.cache().flush();
                flushes.add(new long[] {simulator.eventCount(), c + 1});
            }
            address = written.index().address();
        }
        for (int point = created; point <= simulator.eventCount(); point++) {
            long completed = 0;
            long inProgress = -1;
            for (long[] flush : flushes) {
                if (flush[0] <= point) {
                    completed = flush[1];
                } else {
                    inProgress = flush[1];
                    break;
                }
            }
            CrashSimulator disk = new CrashSimulator(simulator.processCrash(point));
            try (IndexFile read = open(disk, FILE, address)) {
                long count = ((SkipListChunkIndex) read.index()).chunkCount();
                if (count != completed && count != inProgress) {
                    fail("at event " + point + ": count " + count + ", expected " + completed
                            + " or " + inProgress);
                }
                List<Long> expected = new ArrayList<>();
                for (long c = 0; c < count; c++) {
                    if (c < 64 * 4 + 2 || c == 64 * 20) {
                        expected.add(c);
                    }
                }
                assertEquals(expected, visited(read.index()), "at event " + point);
                for (long c : expected) {
                    assertEquals(record(c), read.index().get(new long[] {c}));
                }
            }
        }
    }

    /**
     * Links rewritten with a valid checksum: one that must lead to the ghost but leads to a
     * supernode, which no lookup follows, is found by forward iteration (what the verifier
     * runs), naming the structure and level; one that leads to the wrong supernode fails the
     * lookup that follows it, as a corrupt supernode.
     */
    @Test
    void aLinkThatLeadsElsewhereIsFound() throws IOException {
        Path path = dir.resolve("damaged.idx");
        long address = writeIndex(path, 64 * 8);
        long[] original = lastSupernodeLinks(path, address);
        relink(path, address, 3, original[2]); // level 3 of supernode 7 leads to the ghost
        try (IndexFile read = open(new TrackingOpener(), path, address)) {
            assertEquals(record(64 * 2), read.index().get(new long[] {64 * 2}));
            CorruptFileException iteration = assertThrows(CorruptFileException.class,
                    () -> visited(read.index()));
            assertTrue(iteration.getMessage().contains("skip list supernode")
                    && iteration.getMessage().contains("link at level 3")
                    && iteration.getMessage().contains(Long.toString(original[3])),
                    iteration.getMessage());
        }
        relink(path, address, 3, original[3]);
        relink(path, address, 1, original[0]); // level 1 of supernode 7 leads to 5, not 6
        try (IndexFile read = open(new TrackingOpener(), path, address)) {
            CorruptFileException lookup = assertThrows(CorruptFileException.class,
                    () -> read.index().get(new long[] {5 * 64}));
            assertTrue(lookup.getMessage().contains("skip list supernode"),
                    lookup.getMessage());
        }
        relink(path, address, 1, original[1]);
        retail(path, address, 0, original[0]); // the tail's level 0 leads to 6, not 7
        try (IndexFile read = open(new TrackingOpener(), path, address)) {
            assertEquals(record(64 * 7), read.index().get(new long[] {64 * 7}));
            CorruptFileException iteration = assertThrows(CorruptFileException.class,
                    () -> visited(read.index()));
            assertTrue(iteration.getMessage().contains("skip list tail")
                    && iteration.getMessage().contains("rightmost supernode at level 0"),
                    iteration.getMessage());
        }
    }

    /**
     * A supernode whose stored height is not the one its ordinal gives, checksum valid: too
     * low, one above, the maximum plus one and 255 are each a corrupt height, never an index
     * out of bounds, for lookups and for iteration.
     */
    @Test
    void aStoredHeightOtherThanTheDerivedOneIsCorrupt() throws IOException {
        Path path = dir.resolve("height.idx");
        long address = writeIndex(path, 64 * 8);
        byte[] intact;
        long at;
        try (Storage storage = new TrackingOpener().open(path, OpenMode.READ)) {
            BlockFile file = new BlockFile(storage);
            SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
            at = SkipListTail.read(file, configuration.tailAddress(), SkipListGeometry.DEFAULT)
                    .rightmost()[0];
            intact = lastSupernode(file, address).encode(SkipListGeometry.DEFAULT,
                    configuration.format());
        }
        int heightOffset = SkipListSupernode.IDENTITY.prefixLength() + 1 + 8;
        assertEquals(4, intact[heightOffset], "supernode 7 is 4 levels tall");
        for (int height : new int[] {3, 5, SkipListGeometry.DEFAULT.maxHeight() + 1, 255}) {
            byte[] damaged = intact.clone();
            damaged[heightOffset] = (byte) height;
            int checksumAt = damaged.length - 4;
            int checksum = JenkinsLookup3.checksum(damaged, 0, checksumAt);
            for (int i = 0; i < 4; i++) {
                damaged[checksumAt + i] = (byte) (checksum >>> (8 * i));
            }
            try (Storage storage = new TrackingOpener().open(path, OpenMode.READ_WRITE)) {
                new BlockFile(storage).write(at, damaged);
            }
            try (IndexFile read = open(new TrackingOpener(), path, address)) {
                for (Executable use : List.<Executable>of(
                        () -> read.index().get(new long[] {64 * 2}),
                        () -> visited(read.index()))) {
                    CorruptFileException corrupt = assertThrows(CorruptFileException.class,
                            use, "height " + height);
                    assertTrue(corrupt.getMessage().contains("skip list supernode")
                            && corrupt.getMessage().contains("height")
                            && corrupt.getMessage().contains(Integer.toString(height)),
                            corrupt.getMessage());
                }
            }
        }
    }

    /**
     * Rewrites the tail of the index at {@code address} in {@code path} with its rightmost link
     * at {@code level} set to {@code target}, checksum recomputed.
     */
    private static void retail(Path path, long address, int level, long target)
            throws IOException {
        try (Storage storage = new TrackingOpener().open(path, OpenMode.READ_WRITE)) {
            BlockFile file = new BlockFile(storage);
            SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
            SkipListTail tail = SkipListTail.read(file, configuration.tailAddress(),
                    SkipListGeometry.DEFAULT);
            long[] rightmost = tail.rightmost().clone();
            rightmost[level] = target;
            file.write(configuration.tailAddress(), new SkipListTail(tail.chunkCount(),
                    rightmost).encode(SkipListGeometry.DEFAULT));
        }
    }

    /**
     * Geometries whose maximum height does not cover the list (one level: a plain linked list
     * of 30,000 supernodes) are iterated in order with every link checked, on a stack bounded
     * by the levels, not by the list's length.
     */
    @Test
    void listsLongerThanTheirHeightCoversAreIteratedInOrder() throws IOException {
        record Case(SkipListGeometry geometry, long chunks) { }
        for (Case c : List.of(new Case(new SkipListGeometry(0, 1), 30_000),
                new Case(new SkipListGeometry(0, 2), 1_000),
                new Case(new SkipListGeometry(1, 3), 2_001))) {
            Path path = dir.resolve("short-" + c.geometry().supernodeBits() + "-"
                    + c.geometry().maxHeight() + ".idx");
            long address;
            try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path,
                    OpenMode.CREATE_NEW)) {
                MetadataCache cache = file.cache(CACHE_BYTES);
                SkipListChunkIndex index = SkipListChunkIndex.create(file.blocks(cache),
                        ChunkRecordFormat.unfiltered(), new ChunkGrid(CHUNK, MAX), c.geometry(),
                        ELEMENT_SIZE);
                for (long chunk = 0; chunk < c.chunks(); chunk++) {
                    index.put(new long[] {chunk}, record(chunk));
                }
                cache.flush();
                address = index.address();
            }
            try (IndexFile read = open(new TrackingOpener(), path, address, c.geometry())) {
                List<Long> expected = new ArrayList<>();
                for (long chunk = 0; chunk < c.chunks(); chunk++) {
                    expected.add(chunk);
                }
                assertEquals(expected, visited(read.index()), c.toString());
                assertEquals(record(c.chunks() / 3), read.index().get(new long[] {c.chunks() / 3}));
            }
        }
    }

    /** The links of the last supernode (7) of the index at {@code address} in {@code path}. */
    private static long[] lastSupernodeLinks(Path path, long address) throws IOException {
        try (Storage storage = new TrackingOpener().open(path, OpenMode.READ)) {
            BlockFile file = new BlockFile(storage);
            return lastSupernode(file, address).links();
        }
    }

    /**
     * Rewrites the last supernode (7) of the index at {@code address} in {@code path} with its
     * link at {@code level} set to {@code target}, checksum recomputed.
     */
    private static void relink(Path path, long address, int level, long target)
            throws IOException {
        try (Storage storage = new TrackingOpener().open(path, OpenMode.READ_WRITE)) {
            BlockFile file = new BlockFile(storage);
            SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
            SkipListTail tail = SkipListTail.read(file, configuration.tailAddress(),
                    SkipListGeometry.DEFAULT);
            SkipListSupernode node = lastSupernode(file, address);
            long[] links = node.links().clone();
            links[level] = target;
            file.write(tail.rightmost()[0], new SkipListSupernode(7, links, node.records())
                    .encode(SkipListGeometry.DEFAULT, configuration.format()));
        }
    }

    private static SkipListSupernode lastSupernode(BlockFile file, long address)
            throws IOException {
        SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
        SkipListTail tail = SkipListTail.read(file, configuration.tailAddress(),
                SkipListGeometry.DEFAULT);
        return SkipListSupernode.read(file, tail.rightmost()[0], 7, SkipListGeometry.DEFAULT,
                configuration.format(), ELEMENT_SIZE);
    }

    /**
     * The configuration node is checked against the layout message and the filters: each
     * mismatch corrupt at the node, with the field, what the layout says and what was found.
     */
    @Test
    void aConfigurationOtherThanTheLayoutAndFiltersSayIsCorruptAtItsFields() throws IOException {
        Path path = dir.resolve("checks.idx");
        long unfiltered;
        long filtered;
        try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path,
                OpenMode.CREATE_NEW)) {
            MetadataCache cache = file.cache(CACHE_BYTES);
            unfiltered = ChunkIndexes.create(file.file(), cache, new long[] {0}, MAX, CHUNK,
                    ELEMENT_SIZE, false, true).address();
            filtered = ChunkIndexes.create(file.file(), cache, new long[] {0}, MAX, CHUNK,
                    ELEMENT_SIZE, true, true).address();
            cache.flush();
        }
        try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path, OpenMode.READ)) {
            MetadataCache cache = file.cache(CACHE_BYTES);
            String configuration = SkipListConfiguration.IDENTITY.structure();
            for (ChunkIndexParameters.SkipList other : List.of(
                    new ChunkIndexParameters.SkipList(5, SkipListGeometry.DEFAULT.maxHeight()),
                    new ChunkIndexParameters.SkipList(SkipListGeometry.DEFAULT.supernodeBits(),
                            SkipListGeometry.DEFAULT.maxHeight() - 1))) {
                DataLayoutMessage layout = new DataLayoutMessage(CHUNK, ELEMENT_SIZE, other,
                        unfiltered);
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> ChunkIndexes.open(file.file(), cache, null, layout, new long[] {0},
                                MAX, false, false));
                assertCorrupt(e, unfiltered, configuration, "supernode bits and max height",
                        other + " (from the data layout message)",
                        SkipListGeometry.DEFAULT.toString());
            }
            CorruptFileException asFiltered = assertThrows(CorruptFileException.class,
                    () -> ChunkIndexes.open(file.file(), cache, null,
                            layout(SkipListGeometry.DEFAULT, unfiltered), new long[] {0}, MAX,
                            true, false));
            assertCorrupt(asFiltered, unfiltered, configuration, "client ID",
                    "1 (filtered chunks)", "0");
            CorruptFileException asUnfiltered = assertThrows(CorruptFileException.class,
                    () -> ChunkIndexes.open(file.file(), cache, null,
                            layout(SkipListGeometry.DEFAULT, filtered), new long[] {0}, MAX,
                            false, false));
            assertCorrupt(asUnfiltered, filtered, configuration, "client ID",
                    "0 (unfiltered chunks)", "1");
        }
    }

    /**
     * Opened for writing, the index continues where the tail says: a chunk rewritten in an
     * earlier supernode keeps the count, appends extend it, and a read-only index refuses a
     * put; the count is the boundary of what a lookup finds.
     */
    @Test
    void aReopenedIndexRewritesEarlierChunksAndAppendsAndAReadOnlyOneRefuses()
            throws IOException {
        Path path = dir.resolve("reopened.idx");
        long address = writeIndex(path, 200);
        ChunkRecord rewritten = new ChunkRecord(7, ELEMENT_SIZE, 0);
        try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path,
                OpenMode.READ_WRITE)) {
            MetadataCache cache = file.cache(CACHE_BYTES);
            SkipListChunkIndex index = (SkipListChunkIndex) ChunkIndexes.open(file.file(), cache,
                    null, layout(SkipListGeometry.DEFAULT, address), new long[] {200}, MAX,
                    false, true);
            index.put(new long[] {5}, rewritten);
            assertEquals(200, index.chunkCount());
            index.put(new long[] {200}, record(200));
            assertEquals(201, index.chunkCount());
            cache.flush();
        }
        try (IndexFile index = open(new TrackingOpener(), path, address)) {
            SkipListChunkIndex list = (SkipListChunkIndex) index.index();
            assertEquals(201, list.chunkCount());
            assertEquals(rewritten, list.get(new long[] {5}));
            assertEquals(record(4), list.get(new long[] {4}));
            assertEquals(record(200), list.get(new long[] {200}));
            assertEquals(ChunkRecord.UNWRITTEN, list.get(new long[] {201}));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> index.append(201));
            assertEquals("skip list index at " + address + " was opened read only",
                    e.getMessage());
            assertEquals(201, list.chunkCount());
        }
    }

    /**
     * The configuration node depends on the tail and the ghost; the tail on each supernode an
     * append creates; a supernode on the chunks it records. A cache that keeps nothing
     * unprotected holds no entry after lookups and a visit of a read-only index.
     */
    @Test
    void theTailWaitsForItsSupernodesAndEachSupernodeForItsChunksAndNothingStaysHeld()
            throws IOException {
        Path path = dir.resolve("dependencies.idx");
        long address;
        try (IndexFile created = create(new TrackingOpener(), path)) {
            MetadataCache cache = created.cache();
            SkipListChunkIndex index = (SkipListChunkIndex) created.index();
            BlockFile file = created.file().file();
            address = index.address();
            cache.flush();
            SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
            long tail = configuration.tailAddress();
            assertTrue(cache.dependsOn(address, tail), "configuration on the tail");
            assertTrue(cache.dependsOn(address, configuration.ghostAddress()),
                    "configuration on the ghost");
            for (long c = 0; c < 64 * 3; c++) {
                ChunkRecord chunk = created.file().writtenChunk(cache, ELEMENT_SIZE);
                index.put(new long[] {c}, chunk);
                cache.flush();
                long newest = SkipListTail.read(file, tail, index.geometry()).rightmost()[0];
                assertTrue(cache.dependsOn(tail, newest), "tail on supernode " + newest);
                assertTrue(cache.dependsOn(newest, chunk.address()),
                        "supernode " + newest + " on chunk " + c);
            }
        }
        try (IndexTestFile file = IndexTestFile.open(new TrackingOpener(), path, OpenMode.READ)) {
            MetadataCache none = file.cache(1);
            ChunkIndex index = ChunkIndexes.open(file.file(), none, null,
                    layout(SkipListGeometry.DEFAULT, address), new long[] {192}, MAX, false,
                    false);
            for (long c = 0; c < 192; c += 17) {
                assertTrue(index.get(new long[] {c}).isWritten(), "chunk " + c);
            }
            assertEquals(0, none.entryCount(), "entries after the lookups");
            long[] count = {0};
            index.forEachStoredChunk((scaled, record) -> count[0]++);
            assertEquals(192, count[0]);
            assertEquals(0, none.entryCount(), "entries after the visit");
        }
    }
}
