package org.quire.format.hdf5;

/**
 * The size of each chunked dataset's chunk cache, as libhdf5's {@code H5Pset_chunk_cache}: at
 * most {@code bytes} bytes of decoded chunks in {@code slots} slots. A chunk goes to slot
 * (linear chunk index mod slots) and evicts the chunk there; then the least recently used chunks
 * are evicted until the bytes fit; a chunk larger than {@code bytes} is not cached. Given to
 * {@link Hdf5File#open(java.nio.file.Path, ChunkCacheSettings)} or
 * {@link Hdf5File#create(java.nio.file.Path, ChunkCacheSettings)} for every dataset of a file,
 * or to {@link Dataset#useChunkCache} for one.
 *
 * <p>Only chunks that pass through filters are cached: reading a filtered chunk means reading
 * and decoding all of it, which the cache saves for the next read of the same chunk. An
 * unfiltered chunk is never read whole for a part of it: a read fetches just the bytes it
 * selects, the operating system's page cache caching them.
 */
public record ChunkCacheSettings(long bytes, int slots) {

    /** libhdf5's default ({@code H5Pset_cache}): 1 MiB in 521 slots. */
    public static final ChunkCacheSettings DEFAULT = new ChunkCacheSettings(1024 * 1024, 521);

    /** No chunk cache: every read of a filtered chunk reads and decodes it. */
    public static final ChunkCacheSettings NONE = new ChunkCacheSettings(0, 0);

    public ChunkCacheSettings {
        if (bytes < 0 || slots < 0) {
            throw new IllegalArgumentException("a chunk cache of " + bytes + " bytes and "
                    + slots + " slots");
        }
    }
}
