package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.ChunkIndexes;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.SkipListGeometry;
import org.quire.format.storage.Durability;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.TrackingOpener;

/**
 * What the skip list index costs against the extensible array and the version-2 B-tree, in
 * positional reads and writes counted by {@link TrackingOpener} (docs/hdf5.md, "The skip list
 * chunk index", where the table printed here is): writes and bytes per append of one chunk
 * with a flush after each, at several index sizes; reads of a cold lookup (the index just
 * opened); reads of a forward iteration over every chunk; and what a whole dataset append
 * writes (chunk, index, object header, superblock, flush journal). The counts are
 * deterministic; the test asserts the seed's claims for the skip list (two index writes per
 * append, lookups logarithmic in the supernode count) and prints every figure.
 *
 * <p>Sizes: {@code -Dquire.chunkIndexCost.sizes=1000,100000,1000000} (default 1000,100000).
 */
class ChunkIndexCostTest {

    private static final int CHUNK_BYTES = 1024;
    private static final int APPENDS_MEASURED = 1000;
    private static final int COLD_LOOKUPS = 100;

    @TempDir
    Path dir;

    /** The three indexes for datasets that grow by appending. */
    enum Kind {
        EXTENSIBLE_ARRAY("extensible array", new long[] {-1}, false),
        VERSION_2_BTREE("v2 B-tree", new long[] {-1, -1}, false),
        SKIP_LIST("skip list", new long[] {-1}, true);

        final String label;
        final long[] maxShape;
        final boolean skipList;

        Kind(String label, long[] maxShape, boolean skipList) {
            this.label = label;
            this.maxShape = maxShape;
            this.skipList = skipList;
        }

        long[] key(long chunk) {
            return maxShape.length == 1 ? new long[] {chunk} : new long[] {chunk, 0};
        }

        long[] shape(long chunks) {
            return maxShape.length == 1 ? new long[] {chunks} : new long[] {chunks, 1};
        }

        long[] chunkShape() {
            long[] chunk = new long[maxShape.length];
            Arrays.fill(chunk, 1);
            chunk[0] = CHUNK_BYTES;
            return chunk;
        }
    }

    /** One index size's figures. */
    record Costs(Kind kind, long chunks, double writesPerAppend, long maxWritesPerAppend,
                 double bytesPerAppend, long openReads, double coldLookupReads,
                 long maxColdLookupReads, long iterationReads) {
        String row() {
            return String.format(Locale.ROOT, "| %s | %,d | %.2f (max %d) | %.0f | %d "
                    + "| %.2f (max %d) | %,d |", kind.label, chunks, writesPerAppend,
                    maxWritesPerAppend, bytesPerAppend, openReads, coldLookupReads,
                    maxColdLookupReads, iterationReads);
        }
    }

    private static ChunkRecord record(long chunk) {
        return new ChunkRecord(1_000_000_000L + chunk * CHUNK_BYTES, CHUNK_BYTES, 0);
    }

    /** An index file and its cache (a file that holds nothing else). */
    private record IndexFile(BlockFile file, MetadataCache cache, ChunkIndex index)
            implements AutoCloseable {
        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private static IndexFile open(TrackingOpener opener, Path path, Kind kind,
                                  DataLayoutMessage layout, long chunks) throws IOException {
        Storage storage = opener.open(path, OpenMode.READ);
        BlockFile file = new BlockFile(storage);
        MetadataCache cache = new MetadataCache(storage, WriteOptions.DEFAULT_METADATA_CACHE_BYTES,
                Durability.NONE);
        return new IndexFile(file, cache, ChunkIndexes.open(file, cache, null, layout,
                kind.shape(chunks), kind.maxShape, false, false));
    }

    private Costs measure(Kind kind, long chunks) throws IOException {
        Path path = dir.resolve(kind.name() + "-" + chunks + ".idx");
        TrackingOpener opener = new TrackingOpener();
        long total = chunks + APPENDS_MEASURED;
        long writes = 0;
        long maxWrites = 0;
        long bytes = 0;
        DataLayoutMessage layout;
        try (Storage storage = opener.open(path, OpenMode.CREATE_NEW)) {
            BlockFile file = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage,
                    WriteOptions.DEFAULT_METADATA_CACHE_BYTES, Durability.NONE);
            ChunkIndex index = ChunkIndexes.create(file, cache, kind.shape(0), kind.maxShape,
                    kind.chunkShape(), 1, false, kind.skipList);
            for (long c = 0; c < chunks; c++) {
                index.put(kind.key(c), record(c));
                if (c % 10_000 == 9_999) {
                    cache.flush();
                }
            }
            cache.flush();
            for (long c = chunks; c < total; c++) {
                opener.resetCounts();
                index.put(kind.key(c), record(c));
                cache.flush();
                TrackingOpener.Counts counts = opener.counts(path);
                writes += counts.writes();
                maxWrites = Math.max(maxWrites, counts.writes());
                bytes += counts.bytesWritten();
            }
            layout = new DataLayoutMessage(kind.chunkShape(), 1, index.parameters(),
                    index.address());
        }
        long lookupReads = 0;
        long maxLookupReads = 0;
        long openReads = 0;
        for (int i = 0; i < COLD_LOOKUPS; i++) {
            long chunk = i * (total - 1) / (COLD_LOOKUPS - 1);
            opener.resetCounts();
            try (IndexFile read = open(opener, path, kind, layout, total)) {
                openReads = opener.counts(path).reads();
                opener.resetCounts();
                assertEquals(record(chunk), read.index().get(kind.key(chunk)));
                long reads = opener.counts(path).reads();
                lookupReads += reads;
                maxLookupReads = Math.max(maxLookupReads, reads);
            }
        }
        long iterationReads;
        try (IndexFile read = open(opener, path, kind, layout, total)) {
            opener.resetCounts();
            long[] visited = {0};
            read.index().forEachStoredChunk((scaled, found) -> visited[0]++);
            iterationReads = opener.counts(path).reads();
            assertEquals(total, visited[0], kind.label);
        }
        return new Costs(kind, total, (double) writes / APPENDS_MEASURED, maxWrites,
                (double) bytes / APPENDS_MEASURED, openReads, (double) lookupReads / COLD_LOOKUPS,
                maxLookupReads, iterationReads);
    }

    /**
     * The index-level table: the skip list writes exactly two blocks per append (its supernode,
     * then the tail), a cold lookup reads at most twice as many supernodes as the supernode
     * count has bits, and an iteration reads each supernode once and the ghost.
     */
    @Test
    void theSkipListsClaimsHoldAndTheCostsOfAllThreeArePrinted() throws IOException {
        List<String> rows = new ArrayList<>();
        rows.add("| index | chunks | writes per append | bytes per append | reads to open "
                + "| reads per cold lookup | reads per forward iteration |");
        rows.add("|---|---:|---:|---:|---:|---:|---:|");
        for (String size : System.getProperty("quire.chunkIndexCost.sizes", "1000,100000")
                .split(",")) {
            long chunks = Long.parseLong(size.strip());
            for (Kind kind : Kind.values()) {
                Costs costs = measure(kind, chunks);
                rows.add(costs.row());
                if (kind == Kind.SKIP_LIST) {
                    SkipListGeometry geometry = SkipListGeometry.DEFAULT;
                    long supernodes = geometry.supernodes(costs.chunks());
                    int bits = 64 - Long.numberOfLeadingZeros(supernodes);
                    assertEquals(2.0, costs.writesPerAppend(), costs.row());
                    assertEquals(2, costs.maxWritesPerAppend(), costs.row());
                    assertEquals(2, costs.openReads(), "configuration and tail: " + costs.row());
                    assertTrue(costs.maxColdLookupReads() <= 2L * bits, costs.row());
                    assertEquals(supernodes + 1, costs.iterationReads(), costs.row());
                }
            }
        }
        System.out.println(String.join("\n", rows));
    }

    /**
     * Appending one chunk of 1 KiB with a flush after it, through the dataset API: every write
     * to the HDF5 file and its flush journal, by the signature each write starts with; the
     * skip list's index writes are one supernode and one tail at every append.
     */
    @Test
    void aDatasetAppendWritesTheChunkTheIndexTheHeaderAndTheSuperblockThroughTheJournal()
            throws IOException {
        List<String> rows = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            TrackingOpener opener = new TrackingOpener();
            Path path = dir.resolve(kind.name() + ".h5");
            Path journal = path.resolveSibling(path.getFileName() + ".qjnl");
            DatasetSpec.Builder spec = DatasetSpec.builder(Datatype.INT8, kind.shape(0))
                    .maxShape(kind.maxShape).chunkShape(kind.chunkShape());
            if (kind.skipList) {
                spec.quireOnlySkipListIndex();
            }
            long fileWrites = 0;
            long journalWrites = 0;
            long bytes = 0;
            int appends = 500;
            try (Hdf5File file = Hdf5File.create(path, opener, WriteOptions.DEFAULT)) {
                Dataset dataset = file.root().createDataset("d", spec.build());
                file.flush();
                byte[] chunk = new byte[CHUNK_BYTES];
                for (int c = 0; c < appends; c++) {
                    Arrays.fill(chunk, (byte) c);
                    opener.resetCounts();
                    long[] shape = kind.shape((c + 1L) * CHUNK_BYTES);
                    dataset.extend(shape);
                    long[] start = new long[shape.length];
                    start[0] = (long) c * CHUNK_BYTES;
                    dataset.write(start, kind.chunkShape(), chunk);
                    file.flush();
                    if (kind.skipList) {
                        Map<String, Long> written = opener.counts(path).writesBySignature();
                        assertEquals(1L, written.get("QSLN"), "append " + c + ": " + written);
                        assertEquals(1L, written.get("QSLT"), "append " + c + ": " + written);
                    }
                    fileWrites += opener.counts(path).writes();
                    journalWrites += opener.counts(journal).writes();
                    bytes += opener.counts(path).bytesWritten();
                }
                rows.add(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.0f | %s |",
                        kind.label, (double) fileWrites / appends,
                        (double) journalWrites / appends, (double) bytes / appends,
                        opener.counts(path).writesBySignature()));
            }
        }
        System.out.println("| index | file writes per append | journal writes per append "
                + "| file bytes per append | writes of the last append |\n|---|---:|---:|---:|---|\n"
                + String.join("\n", rows));
    }
}
