package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.DataspaceMessage;

/** The chunk cache's bounds: bytes, slots, and what it does with chunks that do not fit. */
class ChunkCacheTest {

    /** One-dimensional chunks of one element: chunk i has linear index i. */
    private static final ChunkGrid LINE = new ChunkGrid(new long[] {1}, new long[] {1000});

    private static long[] at(long... scaled) {
        return scaled;
    }

    @Test
    void evictsTheLeastRecentlyUsedChunkWhenTheBytesWouldExceedTheBound() {
        ChunkCache cache = new ChunkCache(LINE, 300, 521);
        byte[] zero = new byte[100];
        byte[] one = new byte[100];
        byte[] two = new byte[100];
        cache.put(at(0), zero);
        cache.put(at(1), one);
        cache.put(at(2), two);
        assertSame(zero, cache.get(at(0)));
        cache.put(at(3), new byte[100]);
        assertNull(cache.get(at(1)), "chunk 1 was used least recently");
        assertSame(zero, cache.get(at(0)));
        assertSame(two, cache.get(at(2)));
        assertEquals(3, cache.count());
        assertEquals(300, cache.bytes());
        cache.put(at(4), new byte[250]);
        assertEquals(1, cache.count(), "one chunk of 250 bytes leaves room for no other");
        assertEquals(250, cache.bytes());
    }

    @Test
    void aChunkPutInAnOccupiedSlotEvictsTheChunkThere() {
        ChunkCache cache = new ChunkCache(LINE, 1 << 20, 5);
        byte[] two = new byte[8];
        cache.put(at(2), two);
        cache.put(at(7), new byte[8]);
        assertNull(cache.get(at(2)), "chunks 2 and 7 share slot 2 of 5");
        cache.put(at(3), new byte[8]);
        assertEquals(2, cache.count());
        assertEquals(16, cache.bytes());
    }

    @Test
    void chunksWithoutALinearIndexAreHashedByTheirCoordinates() {
        long unlimited = DataspaceMessage.UNLIMITED;
        ChunkGrid twoUnlimited = new ChunkGrid(new long[] {2, 2}, new long[] {unlimited, unlimited});
        ChunkCache cache = new ChunkCache(twoUnlimited, 1 << 20, 521);
        byte[] chunk = new byte[32];
        cache.put(at(40, 3), chunk);
        assertSame(chunk, cache.get(at(40, 3)));
        assertNull(cache.get(at(3, 40)));
    }

    @Test
    void aChunkLargerThanTheBoundOrACacheWithoutSlotsKeepsNothing() {
        ChunkCache small = new ChunkCache(LINE, 64, 521);
        small.put(at(0), new byte[65]);
        assertNull(small.get(at(0)));
        ChunkCache none = new ChunkCache(LINE, 0, 0);
        none.put(at(0), new byte[1]);
        assertNull(none.get(at(0)));
        assertEquals(0, none.count());
    }

    @Test
    void aChunkExactlyAsLargeAsTheBoundIsKept() {
        ChunkCache cache = new ChunkCache(LINE, 64, 521);
        byte[] chunk = new byte[64];
        cache.put(at(0), chunk);
        assertSame(chunk, cache.get(at(0)));
        assertEquals(64, cache.bytes());
        assertEquals(1, cache.count());
    }

    @Test
    void removeIfForgetsExactlyTheChunksItAcceptsAndKeepsTheOthersInRecencyOrder() {
        ChunkCache cache = new ChunkCache(LINE, 60, 521);
        byte[][] chunks = new byte[6][];
        for (int i = 0; i < 6; i++) {
            chunks[i] = new byte[10];
            cache.put(at(i), chunks[i]);
        }
        cache.removeIf(scaled -> scaled[0] % 2 == 0);
        assertEquals(3, cache.count());
        assertEquals(30, cache.bytes());
        for (int i = 0; i < 6; i++) {
            if (i % 2 == 0) {
                assertNull(cache.get(at(i)), "removed " + i);
            }
        }
        // Left, oldest first: 1, 3, 5. Four more chunks of 10 bytes evict 1 alone.
        for (int i = 6; i < 10; i++) {
            cache.put(at(i), new byte[10]);
        }
        assertNull(cache.get(at(1)), "the oldest left");
        assertSame(chunks[3], cache.get(at(3)));
        assertSame(chunks[5], cache.get(at(5)));
        assertEquals(6, cache.count());
    }

    @Test
    void aNewVersionReplacesTheOldAndRemoveForgetsIt() {
        ChunkCache cache = new ChunkCache(LINE, 1 << 20, 521);
        byte[] first = new byte[8];
        byte[] second = new byte[16];
        cache.put(at(9), first);
        cache.put(at(9), second);
        assertSame(second, cache.get(at(9)));
        assertEquals(16, cache.bytes());
        assertSame(second, cache.remove(at(9)));
        assertNull(cache.get(at(9)));
        assertNull(cache.remove(at(9)));
        assertEquals(0, cache.bytes());
    }

    @Test
    void refusesNegativeBounds() {
        assertThrows(IllegalArgumentException.class, () -> new ChunkCache(LINE, -1, 521));
        assertThrows(IllegalArgumentException.class, () -> new ChunkCache(LINE, 1, -1));
    }
}
