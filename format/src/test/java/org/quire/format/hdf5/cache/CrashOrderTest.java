package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.cache.RecordingStorage.Event;
import org.quire.format.storage.Durability;

/**
 * What a crash leaves of a {@link ModelChunkIndex} appended through the cache: the state of a
 * completed flush, the last one or the one in progress, never a mix, and never less than the
 * last completed flush. Crashes are rebuilt from the recorded writes: a killed writer keeps
 * every write it completed, in order; a power loss keeps every write before the last force and
 * any subset of the writes after it.
 */
class CrashOrderTest {

    private static final int CHUNKS = 3000;
    private static final int FLUSH_EVERY = 300;
    private static final long BOUND = 16 * 1024;

    private final RecordingStorage storage = new RecordingStorage();
    /** Events recorded and chunk count when each flush returned, the empty file first. */
    private final List<int[]> flushEnds = new ArrayList<>();

    private void appendAndFlush(Durability durability) throws IOException {
        MetadataCache cache = new MetadataCache(storage, BOUND, durability);
        ModelChunkIndex index = new ModelChunkIndex(cache, storage, true);
        flushEnds.add(new int[] {0, 0});
        while (index.count() < CHUNKS) {
            index.append();
            if (index.count() % FLUSH_EVERY == 0) {
                cache.flush();
                flushEnds.add(new int[] {storage.events().size(), (int) index.count()});
            }
        }
        index.close();
        cache.flushForClose();
    }

    @Test
    void aKilledWriterLeavesTheStateOfAFlush() throws IOException {
        appendAndFlush(Durability.NONE);
        int crashes = 0;
        List<Event> events = storage.events();
        for (int last = -1; last < events.size(); last++) {
            if (last >= 0 && ModelChunkIndex.isChunk(events.get(last).address())) {
                continue; // a chunk write adds bytes no metadata points at yet
            }
            int survivors = last + 1;
            assertFlushState(storage.imageWith(i -> i < survivors), survivors);
            crashes++;
        }
        assertTrue(crashes > 2 * CHUNKS / FLUSH_EVERY, crashes + " crash points");
    }

    @Test
    void aPowerLossAfterAnyForceLeavesTheStateOfAFlush() throws IOException {
        appendAndFlush(Durability.EVERY_FLUSH);
        List<Event> events = storage.events();
        List<Integer> forces = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).force()) {
                forces.add(i);
            }
        }
        Random random = new Random(11);
        int images = 0;
        int segmentStart = 0;
        for (int segmentEnd : forces) {
            for (Set<Integer> lost : lossesWithin(segmentStart, segmentEnd, random)) {
                RecordingStorage image = storage.imageWith(i -> i < segmentEnd
                        && !lost.contains(i));
                assertFlushState(image, segmentStart);
                images++;
            }
            segmentStart = segmentEnd + 1;
        }
        assertTrue(images > 100, images + " crash images");
        // Two per flush that changed the header, one for the flush at close (nothing dirty).
        assertEquals(2 * (CHUNKS / FLUSH_EVERY) + 1, forces.size());
    }

    @Test
    void withoutForcesAPowerLossCanMixStates() throws IOException {
        // The checker's own test: a disk that kept the last header write but not the data
        // block write before it holds a count whose last records point nowhere.
        appendAndFlush(Durability.NONE);
        List<Event> events = storage.events();
        int header = events.size() - 1;
        int dataBlock = header - 1;
        while (events.get(dataBlock).length() != 8 * ModelChunkIndex.RECORDS_PER_BLOCK) {
            dataBlock--;
        }
        int lostBlock = dataBlock;
        RecordingStorage image = storage.imageWith(i -> i != lostBlock);
        AssertionError mixed = null;
        try {
            assertFlushState(image, events.size());
        } catch (AssertionError e) {
            mixed = e;
        }
        assertTrue(mixed != null && mixed.getMessage().contains("expected"),
                "a header published before its data block must be caught");
    }

    /**
     * Sets of writes in {@code [start, end)} a power loss may lose: none, all, each metadata
     * write alone, all but each metadata write, and random halves.
     */
    private List<Set<Integer>> lossesWithin(int start, int end, Random random) {
        List<Integer> metadata = new ArrayList<>();
        Set<Integer> all = new HashSet<>();
        for (int i = start; i < end; i++) {
            all.add(i);
            if (!ModelChunkIndex.isChunk(storage.events().get(i).address())) {
                metadata.add(i);
            }
        }
        List<Set<Integer>> losses = new ArrayList<>(List.of(Set.of(), all));
        for (int write : metadata) {
            losses.add(Set.of(write));
            Set<Integer> allBut = new HashSet<>(all);
            allBut.remove(write);
            losses.add(allBut);
        }
        for (int trial = 0; trial < 10; trial++) {
            Set<Integer> half = new HashSet<>();
            for (int i = start; i < end; i++) {
                if (random.nextBoolean()) {
                    half.add(i);
                }
            }
            losses.add(half);
        }
        return losses;
    }

    /**
     * Checks that {@code image} holds the state of a flush: the count of the last flush that
     * returned before event {@code surviving} (all events before it survived), or of the flush
     * in progress then; every record below the count points at its chunk, and the chunk holds
     * its bytes.
     */
    private void assertFlushState(RecordingStorage image, int surviving) throws IOException {
        long completed = 0;
        long inProgress = -1;
        for (int[] end : flushEnds) {
            if (end[0] <= surviving) {
                completed = end[1];
            } else if (inProgress < 0) {
                inProgress = end[1];
            }
        }
        long count = image.size() < 8 * (1 + ModelChunkIndex.DIRECTORIES) ? 0
                : ModelChunkIndex.headerOnDisk(image).get(0);
        assertTrue(count == completed || count == inProgress, "count " + count
                + " after a crash at event " + surviving + ", expected " + completed
                + (inProgress >= 0 ? " or " + inProgress : ""));
        LongBlock header = count == 0 ? null : ModelChunkIndex.headerOnDisk(image);
        for (long chunk = 0; chunk < count; chunk += ModelChunkIndex.RECORDS_PER_BLOCK) {
            long firstOfBlock = chunk;
            long end = Math.min(count, chunk + ModelChunkIndex.RECORDS_PER_BLOCK);
            for (long record = firstOfBlock; record < end; record++) {
                long address = ModelChunkIndex.recordOnDisk(image, header, record);
                assertEquals(ModelChunkIndex.chunkAddress(record), address,
                        "record " + record + " of " + count);
                assertEquals(record + 1, ModelChunkIndex.chunkOnDisk(image, address),
                        "chunk " + record + " of " + count);
            }
        }
    }
}
