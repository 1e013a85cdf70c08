package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

import org.quire.format.storage.Durability;

/** The flush dependency rules: children before parents, and which dependencies are refused. */
class FlushDependencyTest {

    private final RecordingStorage storage = new RecordingStorage();
    private final MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);

    private LongBlock insert(long address) throws IOException {
        return insert(address, FlushStage.METADATA);
    }

    private LongBlock insert(long address, FlushStage stage) throws IOException {
        LongBlock block = new LongBlock(address, stage, 1);
        block.set(0, address);
        cache.insert(block);
        return block;
    }

    private void dirty(long address) throws IOException {
        LongBlock block = cache.protect(address, LongBlock.class,
                LongBlock.loader(FlushStage.METADATA, 1));
        cache.markDirty(block);
        cache.unprotect(block);
    }

    private List<Long> flushedAddresses() throws IOException {
        storage.clearEvents();
        cache.flush();
        return storage.writtenAddresses();
    }

    @Test
    void writesAChildBeforeItsParentWhateverTheirAddresses() throws IOException {
        insert(100);
        insert(200);
        cache.createFlushDependency(100, 200);
        assertEquals(List.of(200L, 100L), flushedAddresses());
        assertEquals(0, cache.dirtyCount());
    }

    @Test
    void writesEntriesWithoutDependenciesInAddressOrder() throws IOException {
        insert(300);
        insert(100);
        insert(200);
        assertEquals(List.of(100L, 200L, 300L), flushedAddresses());
    }

    @Test
    void writesATreeOneLevelAfterTheOther() throws IOException {
        for (long address : new long[] {100, 200, 300, 400, 500, 600}) {
            insert(address);
        }
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(100, 300);
        cache.createFlushDependency(200, 400);
        cache.createFlushDependency(200, 500);
        cache.createFlushDependency(300, 600);
        assertEquals(List.of(400L, 500L, 600L, 200L, 300L, 100L), flushedAddresses());
    }

    @Test
    void writesTheSharedChildOfADiamondOnceAndFirst() throws IOException {
        for (long address : new long[] {100, 200, 300, 400}) {
            insert(address);
        }
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(100, 300);
        cache.createFlushDependency(200, 400);
        cache.createFlushDependency(300, 400);
        assertEquals(List.of(400L, 200L, 300L, 100L), flushedAddresses());
    }

    @Test
    void aParentWaitsForDirtyEntriesBelowACleanChild() throws IOException {
        insert(100);
        insert(200);
        insert(300);
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(200, 300);
        cache.flush();
        dirty(100);
        dirty(300);
        assertFalse(cache.isDirty(200));
        assertEquals(List.of(300L, 100L), flushedAddresses());
    }

    @Test
    void writesOnlyWhatChangedSinceTheLastFlush() throws IOException {
        insert(100);
        insert(200);
        cache.createFlushDependency(100, 200);
        cache.flush();
        assertEquals(List.of(), flushedAddresses());
        dirty(100);
        assertEquals(List.of(100L), flushedAddresses());
    }

    @Test
    void refusesAnEntryDependingOnItself() throws IOException {
        insert(100);
        FlushDependencyCycleException e = assertThrows(FlushDependencyCycleException.class,
                () -> cache.createFlushDependency(100, 100));
        assertEquals(List.of(100L), e.cycle());
    }

    @Test
    void refusesTwoEntriesDependingOnEachOther() throws IOException {
        insert(100);
        insert(200);
        cache.createFlushDependency(100, 200);
        FlushDependencyCycleException e = assertThrows(FlushDependencyCycleException.class,
                () -> cache.createFlushDependency(200, 100));
        assertEquals(List.of(100L, 200L), e.cycle());
    }

    @Test
    void refusesALongCycleAndKeepsTheDependenciesItHad() throws IOException {
        insert(100);
        insert(200);
        insert(300);
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(200, 300);
        FlushDependencyCycleException e = assertThrows(FlushDependencyCycleException.class,
                () -> cache.createFlushDependency(300, 100));
        assertEquals(List.of(100L, 200L, 300L), e.cycle());
        assertTrue(e.getMessage().contains("[100, 200, 300]"), e.getMessage());
        assertEquals(List.of(300L, 200L, 100L), flushedAddresses());
    }

    @Test
    void refusesACycleThroughOneSideOfADiamond() throws IOException {
        for (long address : new long[] {100, 200, 300, 400}) {
            insert(address);
        }
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(100, 300);
        cache.createFlushDependency(200, 400);
        cache.createFlushDependency(300, 400);
        FlushDependencyCycleException e = assertThrows(FlushDependencyCycleException.class,
                () -> cache.createFlushDependency(400, 300));
        assertEquals(List.of(300L, 400L), e.cycle());
    }

    @Test
    void refusesADependencyOnAnEntryNotInTheCache() throws IOException {
        insert(100);
        FlushDependencyException missingChild = assertThrows(FlushDependencyException.class,
                () -> cache.createFlushDependency(100, 999));
        assertTrue(missingChild.getMessage().contains("child at 999"),
                missingChild.getMessage());
        FlushDependencyException missingParent = assertThrows(FlushDependencyException.class,
                () -> cache.createFlushDependency(999, 100));
        assertTrue(missingParent.getMessage().contains("parent at 999"),
                missingParent.getMessage());
    }

    @Test
    void refusesAChildOfALaterStageThanItsParent() throws IOException {
        insert(100, FlushStage.METADATA);
        insert(200, FlushStage.OBJECT_HEADER);
        FlushDependencyException e = assertThrows(FlushDependencyException.class,
                () -> cache.createFlushDependency(100, 200));
        assertTrue(e.getMessage().contains("OBJECT_HEADER comes after METADATA"),
                e.getMessage());
    }

    @Test
    void refusesAChunkProxyAsAParent() throws IOException {
        cache.insert(new ChunkProxy(100, 4096));
        cache.insert(new ChunkProxy(5000, 4096));
        assertThrows(FlushDependencyException.class,
                () -> cache.createFlushDependency(100, 5000));
    }

    @Test
    void destroyingADependencyFreesTheOrder() throws IOException {
        insert(100);
        insert(200);
        cache.createFlushDependency(100, 200);
        cache.destroyFlushDependency(100, 200);
        assertEquals(List.of(100L, 200L), flushedAddresses());
        FlushDependencyException e = assertThrows(FlushDependencyException.class,
                () -> cache.destroyFlushDependency(100, 200));
        assertTrue(e.getMessage().contains("no flush dependency"), e.getMessage());
    }

    @Test
    void destroyingTheLastDirtyChildsDependencyLetsTheParentGoFirst() throws IOException {
        insert(100);
        insert(200);
        insert(300);
        cache.createFlushDependency(100, 300);
        cache.createFlushDependency(200, 300);
        cache.destroyFlushDependency(100, 300);
        // 200 still waits for 300; 100 does not.
        assertEquals(List.of(100L, 300L, 200L), flushedAddresses());
    }

    @Test
    void statingADependencyAgainChangesNothing() throws IOException {
        insert(100);
        insert(200);
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(100, 200);
        cache.destroyFlushDependency(100, 200);
        assertEquals(List.of(100L, 200L), flushedAddresses());
    }

    @Test
    void changingAnEntryRequiresProtectingIt() throws IOException {
        LongBlock block = insert(100);
        assertThrows(IllegalStateException.class, () -> cache.markDirty(block));
        assertThrows(IllegalStateException.class, () -> cache.unprotect(block));
        assertThrows(IllegalStateException.class, () -> insert(100));
    }

    @Test
    void dependsOnTellsADirectDependencyOnly() throws IOException {
        insert(100);
        insert(200);
        insert(300);
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(200, 300);
        assertTrue(cache.dependsOn(100, 200));
        assertFalse(cache.dependsOn(200, 100));
        assertFalse(cache.dependsOn(100, 300), "only through 200");
        assertFalse(cache.dependsOn(100, 999));
        assertFalse(cache.dependsOn(999, 100));
        cache.destroyFlushDependency(100, 200);
        assertFalse(cache.dependsOn(100, 200));
    }

    /** Three levels: each parent waits for the whole chain below it, not only its child. */
    @Test
    void writesAChainBottomUpWhateverTheAddresses() throws IOException {
        insert(100);
        insert(200);
        insert(300);
        insert(50);
        cache.createFlushDependency(100, 200);
        cache.createFlushDependency(200, 300);
        cache.createFlushDependency(50, 200);
        assertEquals(List.of(300L, 200L, 50L, 100L), flushedAddresses());
    }
}
