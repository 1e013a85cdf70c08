package org.quire.format.hdf5;

/**
 * How a dataset's elements are stored (data layout message classes, specification section
 * IV.A.2.i).
 */
public enum StorageLayout {
    /** In the data layout message itself (small datasets). */
    COMPACT,
    /** In one block of the file, row-major. */
    CONTIGUOUS,
    /** In chunks found through a chunk index. */
    CHUNKED,
    /** In other datasets, through the mappings of a virtual dataset. */
    VIRTUAL
}
