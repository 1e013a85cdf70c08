package org.quire.format.hdf5.cache;

import java.nio.ByteBuffer;

/**
 * One structure at a fixed file address, as the {@link MetadataCache} holds it: a metadata
 * block the cache writes (an index block, a heap block, an object header, the superblock), or a
 * {@link ChunkProxy} standing for raw bytes another component writes. An entry never moves and
 * never changes its size: the writers of the HDF5 package rewrite every block in place.
 */
public interface CacheEntry {

    /** Where the entry's bytes start in the file; the cache's key for it. */
    long address();

    /** Bytes the cache writes for this entry (its on-disk image), and holds in memory for it. */
    int imageSize();

    /** When a flush writes the entry relative to the others. */
    FlushStage stage();

    /**
     * Puts the entry's on-disk image, exactly {@link #imageSize()} bytes, into {@code target}
     * from its position on.
     */
    void encode(ByteBuffer target);

}
