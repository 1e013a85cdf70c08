package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Key of a version-1 B-tree of type 1 (raw data chunks), specification section III.A.1: the
 * stored size and filter mask of the chunk it precedes, and that chunk's offset in elements per
 * dimension, plus a last offset for the element-size "dimension": 0, except in the right key
 * libhdf5 writes past the last chunk it appended (chunk size 0, the chunk's offsets plus one
 * chunk in every dimension and the element size there). A node's last key bounds its last
 * chunk from above.
 *
 * <pre>
 * +----------------+-----------------+----------------------------------------------+
 * | chunk size (4) | filter mask (4) | offset (8) per dimension, rank + 1 of them   |
 * +----------------+-----------------+----------------------------------------------+
 * </pre>
 *
 * @param offsets the element offsets of the dataset's dimensions
 * @param elementOffset the offset of the element-size "dimension" (0 or the element size)
 */
public record BTreeV1ChunkKey(long chunkSize, int filterMask, long[] offsets,
                              long elementOffset) {

    /** The key of a stored chunk (element offset 0). */
    public BTreeV1ChunkKey(long chunkSize, int filterMask, long[] offsets) {
        this(chunkSize, filterMask, offsets, 0);
    }

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
                long elementOffset = in.getLong("element offset");
                return new BTreeV1ChunkKey(size, mask, offsets, elementOffset);
            }

            @Override
            public void encode(BTreeV1ChunkKey key, LittleEndianWriter out) {
                out.putInt((int) key.chunkSize()).putInt(key.filterMask());
                for (long offset : key.offsets()) {
                    out.putLong(offset);
                }
                out.putLong(key.elementOffset());
            }
        };
    }

    /**
     * Compares whole keys as libhdf5 orders them (H5Dbtree.c): the chunk offsets, then the
     * element offset, so a right key past the last chunk comes after that chunk's own key.
     */
    public static int compare(BTreeV1ChunkKey a, BTreeV1ChunkKey b) {
        int c = compareOffsets(a.offsets, b.offsets);
        return c != 0 ? c : Long.compareUnsigned(a.elementOffset, b.elementOffset);
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
