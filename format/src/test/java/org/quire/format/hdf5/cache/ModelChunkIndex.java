package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.quire.format.storage.Storage;

/**
 * A test model of an append-only, extensible-array-like chunk index written through a {@link
 * MetadataCache}: an object header at address 0 (the chunk count, then the directory addresses)
 * → directory blocks (512 data block addresses) → data blocks (1,024 chunk addresses) → one
 * {@link ChunkProxy} per chunk. Chunks live apart from the metadata, so their addresses follow
 * from their numbers; when asked, the model also writes each chunk's 8 bytes (its number
 * plus one) as a chunk store would, before telling the cache.
 */
final class ModelChunkIndex {

    static final int RECORDS_PER_BLOCK = 1024;
    static final int BLOCKS_PER_DIRECTORY = 512;
    static final int DIRECTORIES = 64;
    static final long CHUNK_SIZE = 4096;
    private static final long FIRST_CHUNK = 1L << 40;
    private static final long HEADER_ADDRESS = 0;

    static final EntryLoader<LongBlock> HEADER_LOADER =
            LongBlock.loader(FlushStage.OBJECT_HEADER, 1 + DIRECTORIES);
    static final EntryLoader<LongBlock> DIRECTORY_LOADER =
            LongBlock.loader(FlushStage.METADATA, BLOCKS_PER_DIRECTORY);
    static final EntryLoader<LongBlock> BLOCK_LOADER =
            LongBlock.loader(FlushStage.METADATA, RECORDS_PER_BLOCK);

    private final MetadataCache cache;
    private final Storage storage;
    private final boolean writesChunks;
    private final LongBlock header;
    private long endOfMetadata = 8 * (1 + DIRECTORIES);
    private long directoryAddress;
    private long blockAddress;
    private long count;

    /** Creates the header in {@code cache} and holds it protected, as a dataset holds its own. */
    ModelChunkIndex(MetadataCache cache, Storage storage, boolean writesChunks)
            throws IOException {
        this.cache = cache;
        this.storage = storage;
        this.writesChunks = writesChunks;
        cache.insert(new LongBlock(HEADER_ADDRESS, FlushStage.OBJECT_HEADER, 1 + DIRECTORIES));
        header = cache.protect(HEADER_ADDRESS, LongBlock.class, HEADER_LOADER);
    }

    static long chunkAddress(long chunk) {
        return FIRST_CHUNK + chunk * CHUNK_SIZE;
    }

    /** Whether {@code address} is a chunk's rather than a metadata block's. */
    static boolean isChunk(long address) {
        return address >= FIRST_CHUNK;
    }

    long count() {
        return count;
    }

    /** Appends the next chunk: its proxy, its record, the blocks it needs, the new count. */
    void append() throws IOException {
        long chunk = count;
        long address = chunkAddress(chunk);
        cache.insert(new ChunkProxy(address, CHUNK_SIZE));
        if (writesChunks) {
            storage.write(ByteBuffer.allocate(Long.BYTES).putLong(0, chunk + 1), address);
        }
        cache.chunkWritten(address);
        if (chunk % RECORDS_PER_BLOCK == 0) {
            startDataBlock(chunk / RECORDS_PER_BLOCK);
        }
        LongBlock block = cache.protect(blockAddress, LongBlock.class, BLOCK_LOADER);
        block.set((int) (chunk % RECORDS_PER_BLOCK), address);
        cache.markDirty(block);
        if (cache.contains(address)) {
            // Loading the block may have evicted the proxy: clean, nothing left to order.
            cache.createFlushDependency(blockAddress, address);
        }
        cache.unprotect(block);
        count = chunk + 1;
        header.set(0, count);
        cache.markDirty(header);
    }

    /** Lets the header go, before the last flush. */
    void close() throws IOException {
        cache.unprotect(header);
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
        cache.createFlushDependency(HEADER_ADDRESS, directoryAddress);
        if (cache.contains(blockAddress)) {
            // Loading the directory may have evicted the new block: written, nothing to order.
            cache.createFlushDependency(directoryAddress, blockAddress);
        }
        cache.unprotect(directory);
    }

    private long allocate(int size) {
        long address = endOfMetadata;
        endOfMetadata += size;
        return address;
    }

    /** The header as a reader finds it in {@code storage}, not in the cache. */
    static LongBlock headerOnDisk(Storage storage) throws IOException {
        return HEADER_LOADER.load(HEADER_ADDRESS, storage);
    }

    /** The chunk address a reader of {@code storage} finds for {@code chunk}. */
    static long recordOnDisk(Storage storage, LongBlock header, long chunk) throws IOException {
        long blockIndex = chunk / RECORDS_PER_BLOCK;
        LongBlock directory = DIRECTORY_LOADER.load(
                header.get(1 + (int) (blockIndex / BLOCKS_PER_DIRECTORY)), storage);
        LongBlock block = BLOCK_LOADER.load(
                directory.get((int) (blockIndex % BLOCKS_PER_DIRECTORY)), storage);
        return block.get((int) (chunk % RECORDS_PER_BLOCK));
    }

    /** The 8 bytes a reader of {@code storage} finds at a chunk's address. */
    static long chunkOnDisk(Storage storage, long chunkAddress) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(Long.BYTES);
        return storage.readFully(bytes, chunkAddress) ? bytes.getLong(0) : 0;
    }
}
