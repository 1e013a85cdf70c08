package org.quire.format.hdf5;

import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.storage.Durability;

/**
 * How {@link Hdf5File#create(java.nio.file.Path, WriteOptions)} writes a file: when flushes
 * force it to disk, how much memory the metadata cache (object headers, chunk index blocks,
 * the superblock between flushes) may take, and the chunk cache each dataset gets (decoded
 * filtered chunks; {@link Hdf5File#open(java.nio.file.Path, ChunkCacheSettings)} takes it
 * alone). Memory stays within the bound however long a dataset grows; only structures a
 * writer holds for good (object headers, index headers) and entries that must wait for a flush
 * may take it past the bound (docs/hdf5.md, "Metadata cache and flush order").
 *
 * @param durability when flushes force the file ({@code fdatasync}); {@link Hdf5File#flush(Durability)}
 *                   chooses for one flush
 * @param metadataCacheBytes the metadata cache's bound, in bytes
 * @param chunkCache the size of each dataset's chunk cache
 */
public record WriteOptions(Durability durability, long metadataCacheBytes,
                           ChunkCacheSettings chunkCache) {

    /** The default metadata cache bound: 8 MiB. */
    public static final long DEFAULT_METADATA_CACHE_BYTES = 8L << 20;

    /** {@link Durability#ON_CLOSE}, an 8 MiB metadata cache and the default chunk cache. */
    public static final WriteOptions DEFAULT =
            new WriteOptions(Durability.ON_CLOSE, DEFAULT_METADATA_CACHE_BYTES);

    public WriteOptions {
        if (durability == null) {
            throw new IllegalArgumentException("durability is required");
        }
        if (chunkCache == null) {
            throw new IllegalArgumentException("chunk cache settings are required");
        }
        if (metadataCacheBytes < 16 * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY) {
            throw new IllegalArgumentException("metadata cache bound of " + metadataCacheBytes
                    + " bytes is below the minimum of "
                    + 16 * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY);
        }
    }

    /** Options with {@link ChunkCacheSettings#DEFAULT} chunk caches. */
    public WriteOptions(Durability durability, long metadataCacheBytes) {
        this(durability, metadataCacheBytes, ChunkCacheSettings.DEFAULT);
    }

    public WriteOptions withDurability(Durability newDurability) {
        return new WriteOptions(newDurability, metadataCacheBytes, chunkCache);
    }

    public WriteOptions withMetadataCacheBytes(long bytes) {
        return new WriteOptions(durability, bytes, chunkCache);
    }

    public WriteOptions withChunkCache(ChunkCacheSettings settings) {
        return new WriteOptions(durability, metadataCacheBytes, settings);
    }
}
