package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Key of a version-1 B-tree of type 1 (raw data chunks), specification section III.A.1: the
 * stored size and filter mask of the chunk it precedes, and that chunk's offset in elements per
 * dimension, plus a last offset for the element-size "dimension", always 0. A node's last key
 * bounds its last chunk from above.
 *
 * <pre>
 * +----------------+-----------------+----------------------------------------------+
 * | chunk size (4) | filter mask (4) | offset (8) per dimension, rank + 1 of them   |
 * +----------------+-----------------+----------------------------------------------+
 * </pre>
 *
 * @param offsets the element offsets of the dataset's dimensions (the last, 0, not kept)
 */
public record BTreeV1ChunkKey(long chunkSize, int filterMask, long[] offsets) {

    /** The key format of chunk B-trees of datasets of {@code rank}. */
    public static BTreeV1Node.KeyFormat<BTreeV1ChunkKey> format(int rank) {
        return new BTreeV1Node.KeyFormat<>() {
            @Override
            public int nodeType() {
                return 1;
            }

            @Override
            public int keySize() {
                return 8 + 8 * (rank + 1);
            }

            @Override
            public BTreeV1ChunkKey decode(LittleEndianReader in) throws CorruptFileException {
                long size = in.getInt("chunk size") & 0xffffffffL;
                int mask = in.getInt("filter mask");
                long[] offsets = new long[rank];
                for (int d = 0; d < rank; d++) {
                    offsets[d] = in.getLong("chunk offset");
                }
                in.getLong("element offset");
                return new BTreeV1ChunkKey(size, mask, offsets);
            }
        };
    }

    /** Compares chunk offsets dimension 0 first, as unsigned numbers (libhdf5's order). */
    public static int compareOffsets(long[] a, long[] b) {
        for (int d = 0; d < a.length; d++) {
            int c = Long.compareUnsigned(a[d], b[d]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
