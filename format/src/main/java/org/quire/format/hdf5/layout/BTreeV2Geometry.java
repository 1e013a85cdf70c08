package org.quire.format.hdf5.layout;

import java.util.Arrays;

/**
 * How many records the nodes of a version-2 B-tree hold and how wide the counts in its node
 * pointers are, derived from the node size and the record size (specification section III.A.2,
 * "Version 2 B-trees"; libhdf5's H5B2hdr.c fixes the derivation).
 *
 * <p>Depth 0 is a leaf. A leaf holds {@code (nodeSize - 10) / recordSize} records (10 bytes:
 * signature, version, type, checksum). An internal node at depth {@code d} holds {@code n}
 * records and {@code n + 1} child pointers, each an address, the child's record count (as wide
 * as the leaf capacity needs) and, when {@code d > 1}, the number of records in the child's
 * subtree (as wide as the most a subtree at depth {@code d - 1} can hold needs); {@code n} is the
 * most that fits with the extra pointer. The most records a subtree at depth {@code d} holds is
 * {@code (n + 1) * most(d - 1) + n}.
 */
public final class BTreeV2Geometry {

    /** Signature, version, tree type and checksum: the bytes of every node that are not records. */
    public static final int NODE_OVERHEAD = 4 + 1 + 1 + MetadataValidator.CHECKSUM_SIZE;

    /** Record counts in nodes are stored in at most 2 bytes. */
    public static final int MAX_NODE_RECORDS = 0xffff;

    /**
     * The geometry made last: an SWMR reader reopens the same tree at every refresh, and the
     * derivation below cost it about as much as reading the tree's header (immutable, so
     * threads may share it).
     */
    private static volatile BTreeV2Geometry last;

    private final long nodeSize;
    private final int recordSize;
    private final int recordCountSize;
    /** Per depth: most records of a node, most records of a subtree, bytes of that count. */
    private final int[] capacity;
    private final long[] subtreeCapacity;
    private final int[] subtreeCountSize;

    /**
     * @throws IllegalArgumentException a leaf or an internal node of depth 1 holds fewer than
     *                                  2 records, a leaf more than {@link #MAX_NODE_RECORDS},
     *                                  or a node does not fit in a Java array
     */
    public BTreeV2Geometry(long nodeSize, int recordSize) {
        if (nodeSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("nodes of " + nodeSize + " bytes do not fit in "
                    + "memory");
        }
        this.nodeSize = nodeSize;
        this.recordSize = recordSize;
        long leaf = recordSize <= 0 ? 0 : (nodeSize - NODE_OVERHEAD) / recordSize;
        if (leaf < 2 || leaf > MAX_NODE_RECORDS) {
            throw new IllegalArgumentException("nodes of " + nodeSize + " bytes hold " + leaf
                    + " records of " + recordSize + " bytes; need 2.." + MAX_NODE_RECORDS);
        }
        this.recordCountSize = encodedSize(leaf);
        int[] capacities = new int[64];
        long[] subtrees = new long[64];
        int[] countSizes = new int[64];
        capacities[0] = (int) leaf;
        subtrees[0] = leaf;
        int depth = 0;
        // Each level at least triples the subtree capacity, so 64 levels exceed 2^63.
        while (depth + 1 < capacities.length) {
            int pointer = Addresses.SIZE_OF_OFFSETS + recordCountSize + countSizes[depth];
            long records = (nodeSize - NODE_OVERHEAD - pointer) / (recordSize + pointer);
            if (records < 2) {
                break;
            }
            long subtree;
            try {
                subtree = Math.addExact(Math.multiplyExact(records + 1, subtrees[depth]), records);
            } catch (ArithmeticException e) {
                break;
            }
            depth++;
            capacities[depth] = (int) records;
            subtrees[depth] = subtree;
            countSizes[depth] = encodedSize(subtree);
        }
        if (depth == 0) {
            throw new IllegalArgumentException("internal nodes of " + nodeSize + " bytes hold "
                    + "fewer than 2 records of " + recordSize + " bytes");
        }
        this.capacity = Arrays.copyOf(capacities, depth + 1);
        this.subtreeCapacity = Arrays.copyOf(subtrees, depth + 1);
        this.subtreeCountSize = Arrays.copyOf(countSizes, depth + 1);
    }

    /**
     * The geometry of nodes of {@code nodeSize} bytes holding records of {@code recordSize}: the
     * last one made when it matches, else a new one.
     *
     * @throws IllegalArgumentException as {@link #BTreeV2Geometry}
     */
    public static BTreeV2Geometry of(long nodeSize, int recordSize) {
        BTreeV2Geometry known = last;
        if (known != null && known.nodeSize == nodeSize && known.recordSize == recordSize) {
            return known;
        }
        BTreeV2Geometry made = new BTreeV2Geometry(nodeSize, recordSize);
        last = made;
        return made;
    }

    /** Bytes libhdf5 uses to store counts up to {@code max}: floor(log2(max) / 8) + 1. */
    private static int encodedSize(long max) {
        return (63 - Long.numberOfLeadingZeros(max)) / 8 + 1;
    }

    public long nodeSize() {
        return nodeSize;
    }

    public int recordSize() {
        return recordSize;
    }

    /** The deepest tree whose record count fits in a long. */
    public int maxDepth() {
        return capacity.length - 1;
    }

    /** Most records of a node at {@code depth} (0: leaf). */
    public int capacity(int depth) {
        return capacity[depth];
    }

    /** Most records of a subtree whose root is at {@code depth}. */
    public long subtreeCapacity(int depth) {
        return subtreeCapacity[depth];
    }

    /** Bytes of the "number of records" field of a child pointer. */
    public int recordCountSize() {
        return recordCountSize;
    }

    /**
     * Bytes of the "total number of records" field of a pointer to a child at {@code depth}:
     * 0 for leaves, whose total is their record count.
     */
    public int subtreeCountSize(int depth) {
        return subtreeCountSize[depth];
    }

    /** Bytes of one child pointer in an internal node at {@code depth} (at least 1). */
    public int childPointerSize(int depth) {
        return Addresses.SIZE_OF_OFFSETS + recordCountSize + subtreeCountSize[depth - 1];
    }

    /** Bytes a node at {@code depth} with {@code records} records uses, checksum included. */
    public int usedSize(int depth, int records) {
        int pointers = depth == 0 ? 0 : (records + 1) * childPointerSize(depth);
        return NODE_OVERHEAD + records * recordSize + pointers;
    }
}
