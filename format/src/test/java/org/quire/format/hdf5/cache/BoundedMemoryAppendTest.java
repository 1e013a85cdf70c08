package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Appends ten million chunks' index entries to an extensible-array-like tree under a 256 KiB
 * memory bound: object header (the record count, the directory addresses) → directory blocks
 * (512 data block addresses) → data blocks (1,024 chunk addresses) → one chunk proxy per chunk.
 * The cache stays under its bound after every append, and the file says what the last flush
 * said, read straight from the storage.
 */
class BoundedMemoryAppendTest {

    private static final long CHUNKS = 10_000_000;
    private static final long FLUSH_EVERY = 250_000;
    private static final long BOUND = 256 * 1024;
    private static final int RECORDS_PER_BLOCK = 1024;
    private static final int BLOCKS_PER_DIRECTORY = 512;
    private static final int DIRECTORIES = 64;
    private static final long CHUNK_SIZE = 4096;
    /** Chunks are allocated apart from the metadata, so their addresses follow from their index. */
    private static final long FIRST_CHUNK = 1L << 40;

    private static final EntryLoader<LongBlock> HEADER_LOADER =
            LongBlock.loader(FlushStage.OBJECT_HEADER, 1 + DIRECTORIES);
    private static final EntryLoader<LongBlock> DIRECTORY_LOADER =
            LongBlock.loader(FlushStage.METADATA, BLOCKS_PER_DIRECTORY);
    private static final EntryLoader<LongBlock> BLOCK_LOADER =
            LongBlock.loader(FlushStage.METADATA, RECORDS_PER_BLOCK);

    private final RecordingStorage storage = new RecordingStorage();
    private final MetadataCache cache = new MetadataCache(storage, BOUND, Durability.NONE);
    private long endOfMetadata;
    private LongBlock header;
    private long directoryAddress;
    private long blockAddress;

    private static long chunkAddress(long chunk) {
        return FIRST_CHUNK + chunk * CHUNK_SIZE;
    }

    private long allocate(int size) {
        long address = endOfMetadata;
        endOfMetadata += size;
        return address;
    }

    @Test
    void appendingTenMillionChunksStaysUnderTheMemoryBound() throws IOException {
        header = new LongBlock(allocate(8 * (1 + DIRECTORIES)), FlushStage.OBJECT_HEADER,
                1 + DIRECTORIES);
        cache.insert(header);
        header = cache.protect(header.address(), LongBlock.class, HEADER_LOADER);
        long maxEntries = BOUND / MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY;
        Random random = new Random(7);
        for (long chunk = 0; chunk < CHUNKS; chunk++) {
            append(chunk);
            if (cache.accountedBytes() > BOUND || cache.entryCount() > maxEntries) {
                throw new AssertionError("after chunk " + chunk + " the cache holds "
                        + cache.entryCount() + " entries, " + cache.accountedBytes()
                        + " bytes; bound " + BOUND);
            }
            if ((chunk + 1) % FLUSH_EVERY == 0) {
                cache.flush();
                assertEquals(0, cache.dirtyCount());
                assertFileHolds(chunk + 1, random);
            }
        }
        cache.unprotect(header);
        cache.flushForClose();
        long dataBlocks = CHUNKS / RECORDS_PER_BLOCK + 1;
        assertTrue(storage.writtenAddresses().size() >= dataBlocks,
                "every data block written at least once");
        assertEveryRecordReloads();
    }

    private void append(long chunk) throws IOException {
        long address = chunkAddress(chunk);
        cache.insert(new ChunkProxy(address, CHUNK_SIZE));
        cache.chunkWritten(address);
        if (chunk % RECORDS_PER_BLOCK == 0) {
            startDataBlock(chunk / RECORDS_PER_BLOCK);
        }
        LongBlock block = cache.protect(blockAddress, LongBlock.class, BLOCK_LOADER);
        block.set((int) (chunk % RECORDS_PER_BLOCK), address);
        cache.markDirty(block);
        cache.createFlushDependency(blockAddress, address);
        cache.unprotect(block);
        header.set(0, chunk + 1);
        cache.markDirty(header);
    }

    private void startDataBlock(long blockIndex) throws IOException {
        if (blockIndex % BLOCKS_PER_DIRECTORY == 0) {
            directoryAddress = allocate(8 * BLOCKS_PER_DIRECTORY);
            cache.insert(new LongBlock(directoryAddress, FlushStage.METADATA,
                    BLOCKS_PER_DIRECTORY));
            header.set(1 + (int) (blockIndex / BLOCKS_PER_DIRECTORY), directoryAddress);
        }
        blockAddress = allocate(8 * RECORDS_PER_BLOCK);
        cache.insert(new LongBlock(blockAddress, FlushStage.METADATA, RECORDS_PER_BLOCK));
        LongBlock directory = cache.protect(directoryAddress, LongBlock.class,
                DIRECTORY_LOADER);
        directory.set((int) (blockIndex % BLOCKS_PER_DIRECTORY), blockAddress);
        cache.markDirty(directory);
        // Stated on every new block: the directory may have been evicted and reloaded since.
        cache.createFlushDependency(header.address(), directoryAddress);
        cache.createFlushDependency(directoryAddress, blockAddress);
        cache.unprotect(directory);
    }

    /** Reads the tree from the storage, not the cache: what a reader would find now. */
    private void assertFileHolds(long count, Random random) throws IOException {
        LongBlock onDisk = HEADER_LOADER.load(header.address(), storage);
        assertEquals(count, onDisk.get(0));
        assertEquals(chunkAddress(count - 1), recordOnDisk(onDisk, count - 1));
        for (int sample = 0; sample < 100; sample++) {
            long chunk = (long) (random.nextDouble() * count);
            assertEquals(chunkAddress(chunk), recordOnDisk(onDisk, chunk), "chunk " + chunk);
        }
    }

    private long recordOnDisk(LongBlock onDiskHeader, long chunk) throws IOException {
        long blockIndex = chunk / RECORDS_PER_BLOCK;
        LongBlock directory = DIRECTORY_LOADER.load(
                onDiskHeader.get(1 + (int) (blockIndex / BLOCKS_PER_DIRECTORY)), storage);
        LongBlock block = BLOCK_LOADER.load(
                directory.get((int) (blockIndex % BLOCKS_PER_DIRECTORY)), storage);
        return block.get((int) (chunk % RECORDS_PER_BLOCK));
    }

    /** Every record, through a new cache as small: each block is loaded, then evicted. */
    private void assertEveryRecordReloads() throws IOException {
        MetadataCache reader = new MetadataCache(storage, BOUND, Durability.NONE);
        LongBlock onDisk = reader.protect(header.address(), LongBlock.class, HEADER_LOADER);
        assertEquals(CHUNKS, onDisk.get(0));
        long chunk = 0;
        for (int d = 0; chunk < CHUNKS; d++) {
            LongBlock directory = reader.protect(onDisk.get(1 + d), LongBlock.class,
                    DIRECTORY_LOADER);
            for (int b = 0; b < BLOCKS_PER_DIRECTORY && chunk < CHUNKS; b++) {
                LongBlock block = reader.protect(directory.get(b), LongBlock.class,
                        BLOCK_LOADER);
                for (int r = 0; r < RECORDS_PER_BLOCK && chunk < CHUNKS; r++, chunk++) {
                    if (block.get(r) != chunkAddress(chunk)) {
                        throw new AssertionError("chunk " + chunk + ": index says "
                                + block.get(r) + ", expected " + chunkAddress(chunk));
                    }
                }
                reader.unprotect(block);
            }
            reader.unprotect(directory);
            assertTrue(reader.accountedBytes() <= BOUND);
        }
        assertEquals(0, reader.dirtyCount());
    }
}
