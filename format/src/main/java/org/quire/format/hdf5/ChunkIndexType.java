package org.quire.format.hdf5;

/**
 * How a chunked dataset finds its chunks (data layout message version 4, "Chunk Indexing Type";
 * version 3 always uses a version-1 B-tree).
 */
public enum ChunkIndexType {
    /** The dataset is one chunk; its address is in the layout message. */
    SINGLE_CHUNK,
    /** Chunks at computed addresses (no filters, early allocation); read, not written. */
    IMPLICIT,
    /** An array with one entry per chunk the maximum shape can hold (no unlimited dimension). */
    FIXED_ARRAY,
    /** A growable array (exactly one unlimited dimension). */
    EXTENSIBLE_ARRAY,
    /** A version-2 B-tree keyed by chunk coordinates (several unlimited dimensions). */
    VERSION_2_BTREE,
    /** A version-1 B-tree keyed by chunk offsets (version-3 layouts, libhdf5's default); read. */
    VERSION_1_BTREE;

    /** The type with code {@code code} (1..5) of the layout message; 0 for a version 3 one. */
    static ChunkIndexType ofCode(int code) {
        return code == 0 ? VERSION_1_BTREE : values()[code - 1];
    }
}
