package org.quire.format.hdf5.layout;

/**
 * The "K" values that size version-1 B-tree nodes and symbol table nodes (specification
 * section II.A, "Group Leaf Node K", "Group Internal Node K", "Indexed Storage Internal Node
 * K"): a group B-tree node holds up to 2 x {@code groupInternalNodeK} children, a symbol table
 * node up to 2 x {@code groupLeafNodeK} entries, a chunk B-tree node up to 2 x
 * {@code chunkNodeK} children. Nodes are stored at their full capacity whatever they hold.
 */
public record BTreeV1Ranks(int groupLeafNodeK, int groupInternalNodeK, int chunkNodeK) {

    /** libhdf5's defaults (H5Fprivate.h: H5F_CRT_SYM_LEAF_DEF, HDF5_BTREE_SNODE_IK_DEF, _CHUNK_IK_DEF). */
    public static final BTreeV1Ranks DEFAULT = new BTreeV1Ranks(4, 16, 32);
}
