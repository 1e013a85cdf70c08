package org.quire.format.hdf5.chunk;

import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;

/** Opens a version-1 B-tree chunk index for writing, for tests outside this package. */
public final class BTreeV1Indexes {

    private BTreeV1Indexes() {
    }

    /** The writable index at {@code root}: its nodes go through {@code cache}. */
    public static ChunkIndex writable(BlockFile file, MetadataCache cache, long root,
                                      long[] chunkShape, int elementSize, int k) {
        return new BTreeV1ChunkIndex(file, cache, root, chunkShape, elementSize, k);
    }
}
