package org.quire.format.hdf5;

/**
 * How a chunked dataset finds its chunks: the "Chunk Indexing Type" of a version-4 data layout
 * message (specification section IV.A.2.i), whose code each constant carries; a version-3
 * message always uses a version-1 B-tree, code 0 here.
 */
public enum ChunkIndexType {
    /** The dataset is one chunk; its address is in the layout message. */
    SINGLE_CHUNK(1),
    /** Chunks at computed addresses (no filters, early allocation); read, not written. */
    IMPLICIT(2),
    /** An array with one entry per chunk the maximum shape can hold (no unlimited dimension). */
    FIXED_ARRAY(3),
    /** A growable array (exactly one unlimited dimension). */
    EXTENSIBLE_ARRAY(4),
    /** A version-2 B-tree keyed by chunk coordinates (several unlimited dimensions). */
    VERSION_2_BTREE(5),
    /** A version-1 B-tree keyed by chunk offsets (version-3 layouts, libhdf5's default); read. */
    VERSION_1_BTREE(0),
    /**
     * Quire's deterministic reverse skip list (one unlimited dimension), chosen only with {@link
     * DatasetSpec.Builder#quireOnlySkipListIndex()}: Quire-only, h5py and libhdf5 refuse the
     * dataset (code 0x51, not an HDF5 index type).
     */
    QUIRE_SKIP_LIST(0x51);

    private final int code;

    ChunkIndexType(int code) {
        this.code = code;
    }

    /** The type with code {@code code} (1..5, 0x51) of the layout message; 0 for a version 3 one. */
    static ChunkIndexType ofCode(int code) {
        for (ChunkIndexType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("no chunk index type has code " + code);
    }
}
