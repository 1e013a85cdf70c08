package org.quire.format.hdf5.layout;

/**
 * The chunk index a version-4 data layout message names, with the creation parameters stored
 * in that message (specification section IV.A.2.i, "Chunk Indexing Type" and the per-type
 * "Indexing Information"); or the version-1 B-tree of a version-3 layout message.
 */
public sealed interface ChunkIndexParameters {

    /** The chunk indexing type code in the layout message. */
    int code();

    /** Index type 1: the only chunk's address is the index address. */
    record SingleChunk(long filteredSize, int filterMask) implements ChunkIndexParameters {
        @Override public int code() {
            return 1;
        }
    }

    /** Index type 3, with {@code pageBits} = log2 of the entries per data block page. */
    record FixedArray(int pageBits) implements ChunkIndexParameters {
        /** libhdf5's default: pages of 1,024 entries. */
        public static final FixedArray DEFAULT = new FixedArray(10);

        @Override public int code() {
            return 3;
        }
    }

    /** Index type 4, see {@link ExtensibleArrayGeometry} for what the parameters shape. */
    record ExtensibleArray(int maxBits, int indexBlockElements, int superBlockMinDataPointers,
                           int dataBlockMinElements, int dataBlockPageBits)
            implements ChunkIndexParameters {
        /** libhdf5's defaults (H5Dearray.c / H5Dchunk.c). */
        public static final ExtensibleArray DEFAULT = new ExtensibleArray(32, 4, 4, 16, 10);

        @Override public int code() {
            return 4;
        }
    }

    /** Index type 2: chunks at computed addresses from the index address on; no parameters. */
    record Implicit() implements ChunkIndexParameters {
        @Override public int code() {
            return 2;
        }
    }

    /**
     * Index type 5, with the version-2 B-tree's node size in bytes and the percentages of a full
     * node at which libhdf5 splits (on insert) and merges (on delete) nodes.
     */
    record BTreeV2(long nodeSize, int splitPercent, int mergePercent)
            implements ChunkIndexParameters {
        /** libhdf5's defaults (H5Dpkg.h: H5D_BT2_NODE_SIZE, _SPLIT_PERC, _MERGE_PERC). */
        public static final BTreeV2 DEFAULT = new BTreeV2(2048, 100, 40);

        @Override public int code() {
            return 5;
        }
    }

    /**
     * Quire's deterministic reverse skip list (docs/hdf5.md, "The skip list chunk index"), with
     * its supernode size (log2 of the chunk records per supernode) and the most levels a
     * supernode links on. Not an HDF5 index type: libhdf5 1.10 refuses any code above 5 when it
     * decodes the layout message, so h5py and h5dump fail on such a dataset with an error (and
     * read the rest of the file); only Quire reads it.
     */
    record SkipList(int supernodeBits, int maxHeight) implements ChunkIndexParameters {
        /** The chunk indexing type code: 'Q' (0x51), far from HDF5's 1..5. */
        public static final int CODE = 0x51;

        @Override public int code() {
            return CODE;
        }
    }

    /**
     * The only chunk index of a version-3 layout message: a version-1 B-tree of node type 1
     * (specification section III.A.1). That message has no indexing type field; its code here
     * is 0. Read only.
     */
    record BTreeV1() implements ChunkIndexParameters {
        @Override public int code() {
            return 0;
        }
    }
}
