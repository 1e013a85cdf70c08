package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

import org.quire.format.storage.Durability;

/** Eviction under the memory bound: what goes, what is written first, what always stays. */
class EvictionTest {

    /** What one single-long block costs the cache. */
    private static final long CHARGE = Long.BYTES + MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
    private static final EntryLoader<LongBlock> LOADER = LongBlock.loader(FlushStage.METADATA, 1);

    private final RecordingStorage storage = new RecordingStorage();

    private MetadataCache cacheHolding(int blocks) {
        return new MetadataCache(storage, blocks * CHARGE, Durability.NONE);
    }

    private static void insert(MetadataCache cache, long address) throws IOException {
        insert(cache, address, FlushStage.METADATA);
    }

    private static void insert(MetadataCache cache, long address, FlushStage stage)
            throws IOException {
        LongBlock block = new LongBlock(address, stage, 1);
        block.set(0, address * 7);
        cache.insert(block);
    }

    private static LongBlock protect(MetadataCache cache, long address) throws IOException {
        return cache.protect(address, LongBlock.class, LOADER);
    }

    @Test
    void evictsTheLeastRecentlyUsedCleanEntry() throws IOException {
        MetadataCache cache = cacheHolding(3);
        insert(cache, 100);
        insert(cache, 200);
        insert(cache, 300);
        cache.flush();
        cache.unprotect(protect(cache, 100));
        storage.clearEvents();
        insert(cache, 400);
        assertFalse(cache.contains(200));
        assertTrue(cache.contains(100) && cache.contains(300) && cache.contains(400));
        assertEquals(3 * CHARGE, cache.accountedBytes());
        assertEquals(List.of(), storage.events(), "a clean entry goes without a write");
    }

    @Test
    void writesADirtyEntryBeforeEvictingItAndReloadsTheSameBytes() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        insert(cache, 300);
        assertEquals(List.of(100L), storage.writtenAddresses());
        assertFalse(cache.contains(100));
        LongBlock reloaded = protect(cache, 100);
        assertEquals(700, reloaded.get(0));
        assertFalse(cache.isDirty(100));
        cache.unprotect(reloaded);
    }

    @Test
    void aBlockAFlushPublishedWaitsForTheNextFlushOnceChanged() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        cache.flush();
        LongBlock published = protect(cache, 100);
        published.set(0, 42);
        cache.markDirty(published);
        cache.unprotect(published);
        storage.clearEvents();
        insert(cache, 200);
        insert(cache, 300);
        assertTrue(cache.contains(100), "published and dirty: not written to make room");
        assertEquals(List.of(200L), storage.writtenAddresses(), "new since the flush: written");
        cache.flush();
        assertEquals(List.of(200L, 100L, 300L), storage.writtenAddresses());
        insert(cache, 400);
        assertFalse(cache.contains(100), "clean again, it goes");
    }

    @Test
    void neverEvictsAProtectedEntry() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        LongBlock held = protect(cache, 100);
        for (long address = 200; address < 2000; address += 100) {
            insert(cache, address);
        }
        assertTrue(cache.contains(100));
        held.set(0, 42);
        cache.markDirty(held);
        cache.unprotect(held);
        cache.flush();
        assertEquals(42, protect(new MetadataCache(storage, CHARGE, Durability.NONE), 100)
                .get(0));
    }

    @Test
    void writesChildrenEarlyButAParentOnlyAfterThem() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        cache.createFlushDependency(100, 200);
        insert(cache, 300);
        // The parent is the oldest, but it has a child: the child goes first.
        assertTrue(cache.contains(100));
        assertFalse(cache.contains(200));
        insert(cache, 400);
        assertEquals(List.of(200L, 100L), storage.writtenAddresses());
        assertEquals(2 * CHARGE, cache.accountedBytes());
    }

    @Test
    void aParentIsEvictedInTheSameCallOnceItsChildIsGone() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        cache.createFlushDependency(100, 200);
        // Slightly larger than one entry: room for it needs both to go.
        cache.insert(new LongBlock(300, FlushStage.METADATA, 2));
        assertEquals(List.of(200L, 100L), storage.writtenAddresses());
        assertEquals(1, cache.entryCount());
        assertTrue(cache.contains(300));
    }

    @Test
    void keepsADirtyEntryWithADirtyChildEvenOverTheBound() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        cache.createFlushDependency(100, 200);
        LongBlock child = protect(cache, 200);
        insert(cache, 300);
        insert(cache, 400);
        // 300 went; 100 waits for its protected child, and the cache holds three.
        assertEquals(List.of(300L), storage.writtenAddresses());
        assertEquals(3, cache.entryCount());
        assertTrue(cache.accountedBytes() > cache.maxBytes());
        cache.unprotect(child);
        // Once unprotected the child goes, which is enough to get back under the bound.
        assertEquals(List.of(300L, 200L), storage.writtenAddresses());
        assertTrue(cache.isDirty(100));
        assertEquals(cache.maxBytes(), cache.accountedBytes());
    }

    @Test
    void neverWritesAPublishingEntryOrAnUnwrittenChunkEarly() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100, FlushStage.OBJECT_HEADER);
        insert(cache, 200, FlushStage.SUPERBLOCK);
        cache.insert(new ChunkProxy(300, 4096));
        insert(cache, 400);
        insert(cache, 500);
        assertEquals(List.of(400L), storage.writtenAddresses());
        assertTrue(cache.contains(100) && cache.contains(200) && cache.contains(300));
        cache.chunkWritten(300);
        assertFalse(cache.contains(300), "a written chunk's proxy goes once over the bound");
        cache.flush();
        assertEquals(2, cache.entryCount());
    }

    @Test
    void anEvictedChildIsWaitedForAgainOnceTheDependencyIsStatedAgain() throws IOException {
        MetadataCache cache = cacheHolding(3);
        insert(cache, 100);
        insert(cache, 200);
        cache.createFlushDependency(100, 200);
        insert(cache, 300);
        insert(cache, 400);
        assertFalse(cache.contains(200));
        cache.unprotect(protect(cache, 100));
        // A writer changing the child again states the dependency again.
        LongBlock child = protect(cache, 200);
        cache.markDirty(child);
        cache.createFlushDependency(100, 200);
        cache.unprotect(child);
        storage.clearEvents();
        cache.flush();
        assertEquals(List.of(200L, 400L, 100L), storage.writtenAddresses());
    }

    @Test
    void reloadsEveryEvictedEntryWithTheBytesLastWritten() throws IOException {
        MetadataCache cache = cacheHolding(4);
        for (long address = 0; address < 800; address += 8) {
            insert(cache, address);
        }
        cache.flush();
        for (long address = 0; address < 800; address += 8) {
            LongBlock block = protect(cache, address);
            assertEquals(address * 7, block.get(0));
            block.set(0, address * 11);
            cache.markDirty(block);
            cache.unprotect(block);
        }
        cache.flush();
        assertTrue(cache.entryCount() <= 4);
        for (long address = 0; address < 800; address += 8) {
            LongBlock block = protect(cache, address);
            assertEquals(address * 11, block.get(0));
            cache.unprotect(block);
        }
    }

    @Test
    void anUnprotectedEntryMayComeBackAsANewObject() throws IOException {
        MetadataCache cache = cacheHolding(1);
        insert(cache, 100);
        LongBlock first = protect(cache, 100);
        cache.unprotect(first);
        insert(cache, 200);
        LongBlock second = protect(cache, 100);
        assertNotSame(first, second);
        assertThrows(IllegalStateException.class, () -> cache.markDirty(first));
    }

    @Test
    void refusesALoaderAnsweringForAnotherAddressAndAnEntryOfAnotherType() throws IOException {
        MetadataCache cache = cacheHolding(4);
        assertThrows(IllegalStateException.class, () -> cache.protect(100, LongBlock.class,
                (address, file) -> new LongBlock(address + 8, FlushStage.METADATA, 1)));
        cache.insert(new ChunkProxy(100, 4096));
        assertThrows(ClassCastException.class, () -> protect(cache, 100));
        assertThrows(IllegalArgumentException.class,
                () -> new MetadataCache(storage, 0, Durability.NONE));
    }

    /** Exactly at the bound nothing is evicted; one byte over it, the oldest clean entry goes. */
    @Test
    void evictsOnlyPastTheBoundAndCountsThePeak() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        cache.flush();
        assertEquals(2 * CHARGE, cache.accountedBytes());
        assertEquals(cache.maxBytes(), cache.accountedBytes());
        assertTrue(cache.contains(100) && cache.contains(200));
        insert(cache, 300);
        assertFalse(cache.contains(100));
        assertEquals(2, cache.entryCount());
        assertEquals(2 * CHARGE, cache.peakAccountedBytes());
        assertEquals(2, cache.peakEntryCount());
    }

    /** An entry loaded by protect makes room like an inserted one. */
    @Test
    void anEntryLoadedFromTheFileEvictsTheOldest() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        insert(cache, 300);
        cache.flush(); // 100 was written and evicted to make room for 300
        assertFalse(cache.contains(100));
        LongBlock loaded = protect(cache, 100);
        assertFalse(cache.contains(200), "the least recently used entry made room at once");
        assertEquals(2, cache.entryCount());
        cache.unprotect(loaded);
        assertTrue(cache.contains(100));
        assertEquals(2, cache.entryCount());
    }

    /**
     * A touched entry moves to the newest end of the recency order and is evicted in turn
     * later: it does not leave the order.
     */
    @Test
    void aTouchedEntryIsEvictedInItsNewTurn() throws IOException {
        MetadataCache cache = cacheHolding(2);
        insert(cache, 100);
        insert(cache, 200);
        cache.flush();
        cache.unprotect(protect(cache, 100)); // order now 200, 100
        insert(cache, 300);
        assertFalse(cache.contains(200));
        cache.flush();
        insert(cache, 400);
        assertFalse(cache.contains(100), "100 is the oldest now");
        assertTrue(cache.contains(300) && cache.contains(400));
    }

    /** A new entry its holder uses at once is protected, dirty and charged. */
    @Test
    void anEntryInsertedProtectedStaysUntilUnprotected() throws IOException {
        MetadataCache cache = cacheHolding(1);
        LongBlock held = cache.insertProtected(new LongBlock(100, FlushStage.METADATA, 1));
        assertTrue(cache.contains(100) && cache.isDirty(100));
        assertEquals(1, cache.dirtyCount());
        assertEquals(CHARGE, cache.accountedBytes());
        cache.markDirty(held);
        insert(cache, 200); // over the bound: 100 is protected, so it stays
        assertTrue(cache.contains(100));
        cache.unprotect(held);
        insert(cache, 300);
        assertFalse(cache.contains(100), "written and evicted once unprotected");
        cache.flush();
        assertEquals(0, cache.dirtyCount());
    }

    /**
     * A flush failing after its first in-place write leaves every later flush failing with the
     * same exception, naming the journal (none for a cache without one).
     */
    @Test
    void aFlushFailingInPlaceFailsEveryLaterFlush() throws IOException {
        org.quire.format.storage.Storage failing = new org.quire.format.storage.ForwardingStorage(
                storage) {
            @Override
            public void write(java.nio.ByteBuffer source, long position) throws IOException {
                if (position == 200) {
                    throw new IOException("disk full");
                }
                super.write(source, position);
            }
        };
        MetadataCache cache = new MetadataCache(failing, 1 << 20, Durability.NONE);
        insert(cache, 100);
        insert(cache, 200);
        IncompleteFlushException first = assertThrows(IncompleteFlushException.class,
                cache::flush);
        assertEquals(null, first.journal());
        assertTrue(first.getMessage().contains("without a flush journal"), first.getMessage());
        assertEquals("disk full", first.getCause().getMessage());
        IncompleteFlushException again = assertThrows(IncompleteFlushException.class,
                cache::flush);
        assertEquals(first, again);

        org.quire.format.storage.Storage journal = new org.quire.format.storage.CrashSimulator()
                .open(java.nio.file.Path.of("f.h5.qjnl"),
                        org.quire.format.storage.OpenMode.CREATE_NEW);
        MetadataCache journaled = new MetadataCache(failing, 1 << 20, Durability.NONE,
                new FlushJournal(journal));
        insert(journaled, 100);
        insert(journaled, 200);
        IncompleteFlushException named = assertThrows(IncompleteFlushException.class,
                journaled::flush);
        assertEquals(journal.path(), named.journal());
        assertTrue(named.getMessage().contains("Hdf5File.recover replays the committed flush"
                + " journal " + journal.path()), named.getMessage());
    }
}
