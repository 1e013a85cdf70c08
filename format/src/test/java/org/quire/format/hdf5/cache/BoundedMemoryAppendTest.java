package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

import org.quire.format.storage.Durability;

/**
 * Appends ten million chunks' index entries ({@link ModelChunkIndex}) under a 256 KiB memory
 * bound: the cache stays under its bound after every append, and the file says what the last
 * flush said, read straight from the storage.
 */
class BoundedMemoryAppendTest {

    private static final long CHUNKS = 10_000_000;
    private static final long FLUSH_EVERY = 250_000;
    private static final long BOUND = 256 * 1024;

    private final RecordingStorage storage = new RecordingStorage();
    private final MetadataCache cache = new MetadataCache(storage, BOUND, Durability.NONE);

    @Test
    void appendingTenMillionChunksStaysUnderTheMemoryBound() throws IOException {
        ModelChunkIndex index = new ModelChunkIndex(cache, storage, false);
        long maxEntries = BOUND / MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
        Random random = new Random(7);
        while (index.count() < CHUNKS) {
            index.append();
            if (cache.accountedBytes() > BOUND || cache.entryCount() > maxEntries) {
                throw new AssertionError("after " + index.count() + " chunks the cache holds "
                        + cache.entryCount() + " entries, " + cache.accountedBytes()
                        + " bytes; bound " + BOUND);
            }
            if (index.count() % FLUSH_EVERY == 0) {
                cache.flush();
                assertEquals(0, cache.dirtyCount());
                assertFileHolds(index.count(), random);
                storage.clearEvents();
            }
        }
        index.close();
        cache.flushForClose();
        assertEveryRecordReloads();
    }

    /** Reads the tree from the storage, not the cache: what a reader would find now. */
    private void assertFileHolds(long count, Random random) throws IOException {
        LongBlock header = ModelChunkIndex.headerOnDisk(storage);
        assertEquals(count, header.get(0));
        assertEquals(ModelChunkIndex.chunkAddress(count - 1),
                ModelChunkIndex.recordOnDisk(storage, header, count - 1));
        for (int sample = 0; sample < 100; sample++) {
            long chunk = (long) (random.nextDouble() * count);
            assertEquals(ModelChunkIndex.chunkAddress(chunk),
                    ModelChunkIndex.recordOnDisk(storage, header, chunk), "chunk " + chunk);
        }
    }

    /** Every record, through a new cache as small: each block is loaded, then evicted. */
    private void assertEveryRecordReloads() throws IOException {
        MetadataCache reader = new MetadataCache(storage, BOUND, Durability.NONE);
        LongBlock header = reader.protect(0, LongBlock.class, ModelChunkIndex.HEADER_LOADER);
        assertEquals(CHUNKS, header.get(0));
        long chunk = 0;
        for (int d = 0; chunk < CHUNKS; d++) {
            LongBlock directory = reader.protect(header.get(1 + d), LongBlock.class,
                    ModelChunkIndex.DIRECTORY_LOADER);
            for (int b = 0; b < ModelChunkIndex.BLOCKS_PER_DIRECTORY && chunk < CHUNKS; b++) {
                LongBlock block = reader.protect(directory.get(b), LongBlock.class,
                        ModelChunkIndex.BLOCK_LOADER);
                for (int r = 0; r < ModelChunkIndex.RECORDS_PER_BLOCK && chunk < CHUNKS;
                        r++, chunk++) {
                    if (block.get(r) != ModelChunkIndex.chunkAddress(chunk)) {
                        throw new AssertionError("chunk " + chunk + ": index says "
                                + block.get(r) + ", expected "
                                + ModelChunkIndex.chunkAddress(chunk));
                    }
                }
                reader.unprotect(block);
            }
            reader.unprotect(directory);
            if (reader.accountedBytes() > BOUND) {
                throw new AssertionError("reader cache over its bound: " + reader.accountedBytes());
            }
        }
        assertEquals(0, reader.dirtyCount());
    }
}
