package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.storage.Durability;

/**
 * The limits of the options a caller gives when opening or creating a file, each at the value
 * accepted last and the first refused, with the message that names it.
 */
class OptionsMutationGapsTest {

    @Test
    void aChunkCacheOfNoBytesOrNoSlotsIsValidAndANegativeOneIsRefused() {
        assertEquals(0, new ChunkCacheSettings(0, 5).bytes());
        assertEquals(0, new ChunkCacheSettings(5, 0).slots());
        assertEquals(new ChunkCacheSettings(0, 0), ChunkCacheSettings.NONE);
        assertEquals(new ChunkCacheSettings(1 << 20, 521), ChunkCacheSettings.DEFAULT);
        assertEquals("a chunk cache of -1 bytes and 5 slots", assertThrows(
                IllegalArgumentException.class, () -> new ChunkCacheSettings(-1, 5)).getMessage());
        assertEquals("a chunk cache of 5 bytes and -1 slots", assertThrows(
                IllegalArgumentException.class, () -> new ChunkCacheSettings(5, -1)).getMessage());
    }

    @Test
    void anSwmrReaderReadsAtLeastOnceWithNoNegativePause() {
        SwmrReadOptions once = new SwmrReadOptions(1, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, ChunkCacheSettings.NONE);
        assertEquals(1, once.attempts());
        assertEquals("attempts must be at least 1, got 0", assertThrows(
                IllegalArgumentException.class, () -> once.withAttempts(0, Duration.ZERO))
                .getMessage());
        Duration negative = Duration.ofNanos(-1);
        for (Executable make : new Executable[] {
                () -> new SwmrReadOptions(1, negative, Duration.ZERO, Duration.ZERO, null),
                () -> new SwmrReadOptions(1, Duration.ZERO, negative, Duration.ZERO, null),
                () -> new SwmrReadOptions(1, Duration.ZERO, Duration.ZERO, negative, null)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
            assertTrue(e.getMessage().startsWith("negative duration in "), e.getMessage());
        }
        SwmrReadOptions more = SwmrReadOptions.DEFAULT.withAttempts(3, Duration.ofMillis(7));
        assertEquals(new SwmrReadOptions(3, Duration.ofMillis(7), Duration.ofNanos(50_000),
                Duration.ofMillis(100), ChunkCacheSettings.DEFAULT), more);
    }

    @Test
    void theMetadataCacheBoundIsAtLeastSixteenEntriesBookkeeping() {
        long minimum = 16L * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
        WriteOptions smallest = WriteOptions.DEFAULT.withMetadataCacheBytes(minimum);
        assertEquals(minimum, smallest.metadataCacheBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WriteOptions.DEFAULT.withMetadataCacheBytes(minimum - 1));
        assertEquals("metadata cache bound of " + (minimum - 1)
                + " bytes is below the minimum of " + minimum, e.getMessage());
        assertEquals("durability is required", assertThrows(IllegalArgumentException.class,
                () -> WriteOptions.DEFAULT.withDurability(null)).getMessage());
        assertEquals("chunk cache settings are required", assertThrows(
                IllegalArgumentException.class, () -> WriteOptions.DEFAULT.withChunkCache(null))
                .getMessage());
        WriteOptions every = WriteOptions.DEFAULT.withDurability(Durability.EVERY_FLUSH)
                .withChunkCache(ChunkCacheSettings.NONE);
        assertEquals(new WriteOptions(Durability.EVERY_FLUSH, 8L << 20, ChunkCacheSettings.NONE),
                every);
        assertEquals(new WriteOptions(Durability.ON_CLOSE, 8L << 20, ChunkCacheSettings.DEFAULT),
                WriteOptions.DEFAULT);
    }
}
