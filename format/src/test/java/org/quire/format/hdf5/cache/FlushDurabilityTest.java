package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.cache.RecordingStorage.Event;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;
import org.quire.format.storage.OpenMode;

/** Where a flush forces the file, and how chunk proxies hold back what points at them. */
class FlushDurabilityTest {

    private static final long INDEX_LEAF = 3000;
    private static final long INDEX_ROOT = 2000;
    private static final long OBJECT_HEADER = 1000;
    private static final long SUPERBLOCK = 0;
    private static final long CHUNK = 10_000;

    private final RecordingStorage storage = new RecordingStorage();

    private MetadataCache cache(Durability durability) {
        return new MetadataCache(storage, 1 << 20, durability);
    }

    /** A dataset's tree: superblock → object header → index root → index leaf. */
    private static void insertDatasetTree(MetadataCache cache) throws IOException {
        cache.insert(new LongBlock(SUPERBLOCK, FlushStage.SUPERBLOCK, 2));
        cache.insert(new LongBlock(OBJECT_HEADER, FlushStage.OBJECT_HEADER, 4));
        cache.insert(new LongBlock(INDEX_ROOT, FlushStage.METADATA, 8));
        cache.insert(new LongBlock(INDEX_LEAF, FlushStage.METADATA, 16));
        cache.createFlushDependency(SUPERBLOCK, OBJECT_HEADER);
        cache.createFlushDependency(OBJECT_HEADER, INDEX_ROOT);
        cache.createFlushDependency(INDEX_ROOT, INDEX_LEAF);
    }

    private static void dirty(MetadataCache cache, long address, FlushStage stage, int length)
            throws IOException {
        LongBlock block = cache.protect(address, LongBlock.class,
                LongBlock.loader(stage, length));
        cache.markDirty(block);
        cache.unprotect(block);
    }

    @Test
    void everyFlushForcesBeforeEachPublishingStageAndAtTheEnd() throws IOException {
        MetadataCache cache = cache(Durability.EVERY_FLUSH);
        insertDatasetTree(cache);
        cache.flush();
        assertEquals(List.of(Event.write(INDEX_LEAF, 128), Event.write(INDEX_ROOT, 64),
                Event.FORCE, Event.write(OBJECT_HEADER, 32), Event.FORCE,
                Event.write(SUPERBLOCK, 16), Event.FORCE), storage.events());
    }

    @Test
    void aJournaledFlushForcesTheChunksTheJournalAndTheBlocksInPlace() throws IOException {
        CrashSimulator disk = new CrashSimulator();
        Path file = Path.of("f.h5");
        Path journal = Path.of("f.h5.qjnl");
        MetadataCache cache = new MetadataCache(disk.open(file, OpenMode.CREATE_NEW), 1 << 20,
                Durability.EVERY_FLUSH, new FlushJournal(disk.open(journal,
                OpenMode.CREATE_NEW)));
        insertDatasetTree(cache);
        int from = disk.eventCount();
        cache.flush();
        List<String> events = new ArrayList<>();
        for (CrashSimulator.Event event : disk.events().subList(from, disk.eventCount())) {
            if (event instanceof CrashSimulator.Write write) {
                events.add("write " + write.path() + " " + write.position());
            } else if (event instanceof CrashSimulator.Force force) {
                events.add("force " + force.path());
            } else if (event instanceof CrashSimulator.Truncate truncate) {
                events.add("truncate " + truncate.path());
            }
        }
        assertEquals(List.of("force f.h5", "write f.h5.qjnl 0", "force f.h5.qjnl",
                "write f.h5 " + INDEX_LEAF, "write f.h5 " + INDEX_ROOT,
                "write f.h5 " + OBJECT_HEADER, "write f.h5 " + SUPERBLOCK, "force f.h5",
                "truncate f.h5.qjnl"), events);
    }

    @Test
    void aFlushOfOnlyTheObjectHeaderStillForcesBeforeIt() throws IOException {
        // Raw chunks the chunk store wrote since the last flush must be on disk before the
        // dataspace that publishes them.
        MetadataCache cache = cache(Durability.EVERY_FLUSH);
        insertDatasetTree(cache);
        cache.flush();
        storage.clearEvents();
        dirty(cache, OBJECT_HEADER, FlushStage.OBJECT_HEADER, 4);
        cache.flush();
        assertEquals(List.of(Event.FORCE, Event.write(OBJECT_HEADER, 32), Event.FORCE),
                storage.events());
    }

    @Test
    void anIndexChangeWithoutAHeaderChangeIsForcedOnce() throws IOException {
        MetadataCache cache = cache(Durability.EVERY_FLUSH);
        insertDatasetTree(cache);
        cache.flush();
        storage.clearEvents();
        dirty(cache, INDEX_LEAF, FlushStage.METADATA, 16);
        cache.flush();
        assertEquals(List.of(Event.write(INDEX_LEAF, 128), Event.FORCE), storage.events());
    }

    @Test
    void anEmptyFlushForcesWhatTheChunkStoreWrote() throws IOException {
        MetadataCache cache = cache(Durability.EVERY_FLUSH);
        cache.flush();
        assertEquals(List.of(Event.FORCE), storage.events());
    }

    @Test
    void noneNeverForcesButKeepsTheOrder() throws IOException {
        MetadataCache cache = cache(Durability.NONE);
        insertDatasetTree(cache);
        cache.flush();
        cache.flushForClose();
        assertEquals(List.of(Event.write(INDEX_LEAF, 128), Event.write(INDEX_ROOT, 64),
                Event.write(OBJECT_HEADER, 32), Event.write(SUPERBLOCK, 16)),
                storage.events());
    }

    @Test
    void onCloseForcesOnlyTheFlushForClose() throws IOException {
        MetadataCache cache = cache(Durability.ON_CLOSE);
        insertDatasetTree(cache);
        cache.flush();
        assertEquals(List.of(Event.write(INDEX_LEAF, 128), Event.write(INDEX_ROOT, 64),
                Event.write(OBJECT_HEADER, 32), Event.write(SUPERBLOCK, 16)),
                storage.events());
        storage.clearEvents();
        dirty(cache, INDEX_LEAF, FlushStage.METADATA, 16);
        dirty(cache, OBJECT_HEADER, FlushStage.OBJECT_HEADER, 4);
        dirty(cache, SUPERBLOCK, FlushStage.SUPERBLOCK, 2);
        cache.flushForClose();
        assertEquals(List.of(Event.write(INDEX_LEAF, 128), Event.FORCE,
                Event.write(OBJECT_HEADER, 32), Event.FORCE, Event.write(SUPERBLOCK, 16),
                Event.FORCE), storage.events());
    }

    @Test
    void refusesToFlushWhileAChunkIsUnwrittenAndWritesNothing() throws IOException {
        MetadataCache cache = cache(Durability.EVERY_FLUSH);
        insertDatasetTree(cache);
        cache.insert(new ChunkProxy(CHUNK, 4096));
        cache.createFlushDependency(INDEX_LEAF, CHUNK);
        IllegalStateException e = assertThrows(IllegalStateException.class, cache::flush);
        assertTrue(e.getMessage().contains("chunk at " + CHUNK), e.getMessage());
        assertEquals(List.of(), storage.events());

        cache.chunkWritten(CHUNK);
        cache.flush();
        assertEquals(Event.write(INDEX_LEAF, 128), storage.events().get(0));
        assertEquals(0, cache.dirtyCount());
    }

    @Test
    void aRewrittenChunkHoldsBackTheHeaderThroughCleanIndexBlocks() throws IOException {
        MetadataCache cache = cache(Durability.NONE);
        insertDatasetTree(cache);
        cache.insert(new ChunkProxy(CHUNK, 4096));
        cache.createFlushDependency(INDEX_LEAF, CHUNK);
        cache.chunkWritten(CHUNK);
        cache.flush();
        // The chunk store rewrites the chunk in place; the index does not change.
        ChunkProxy proxy = cache.protect(CHUNK, ChunkProxy.class,
                (address, ignored) -> new ChunkProxy(address, 4096));
        cache.markDirty(proxy);
        cache.unprotect(proxy);
        dirty(cache, OBJECT_HEADER, FlushStage.OBJECT_HEADER, 4);
        assertThrows(IllegalStateException.class, cache::flush);
    }

    @Test
    void chunkWrittenNamesAnAddressWithoutAProxy() throws IOException {
        MetadataCache cache = cache(Durability.NONE);
        insertDatasetTree(cache);
        assertThrows(IllegalStateException.class, () -> cache.chunkWritten(CHUNK));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> cache.chunkWritten(INDEX_LEAF));
        assertTrue(e.getMessage().contains("METADATA entry at " + INDEX_LEAF), e.getMessage());
    }

    @Test
    void refusesAnEntryWhoseImageIsNotItsSize() throws IOException {
        MetadataCache cache = cache(Durability.NONE);
        cache.insert(new CacheEntry() {
            @Override
            public long address() {
                return 0;
            }

            @Override
            public int imageSize() {
                return 24;
            }

            @Override
            public FlushStage stage() {
                return FlushStage.METADATA;
            }

            @Override
            public void encode(ByteBuffer target) {
                target.putLong(1).putLong(2);
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, cache::flush);
        assertTrue(e.getMessage().contains("encoded 16 bytes, its image has 24"),
                e.getMessage());
    }
}
