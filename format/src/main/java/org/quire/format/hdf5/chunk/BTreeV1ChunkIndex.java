package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.btree.BTreeV1Writer;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The chunk index of a version-3 data layout message (libhdf5's default format): a version-1
 * B-tree of node type 1 whose keys are chunk offsets in elements (libhdf5's H5Dbtree.c). Child
 * {@code i} of a node holds the chunks from key {@code i} up to key {@code i + 1}; in a leaf
 * (level 0), child {@code i} is the chunk at key {@code i}'s offsets, with its stored size and
 * filter mask.
 *
 * <p>Opened for writing (a file in libhdf5's default format extended in place), {@link #put}
 * inserts through {@link BTreeV1Writer} as libhdf5's H5Dbtree.c does: a chunk past the last
 * key is appended with a new right key (size 0, offsets one chunk past the chunk's in every
 * dimension, the element size as the last offset); one between two keys goes right of the
 * left one; one before the first key becomes the first; a chunk stored again replaces its
 * key's size and filter mask and its address where it is. Nodes then come from the metadata
 * cache, which holds the changes until its flush.
 */
public final class BTreeV1ChunkIndex implements ChunkIndex {

    /** Nodes kept for lookups: a path from the root of any tree of 2^32 chunks, and siblings. */
    private static final int CACHED_NODES = 64;

    private final BlockFile file;
    private final long rootAddress;
    private final long[] chunkShape;
    private final int elementSize;
    private final int k;
    /** The writer of an index opened for writing, or null. */
    private final BTreeV1Writer<BTreeV1ChunkKey> writer;
    private final BTreeV1Node.KeyFormat<BTreeV1ChunkKey> keys;
    private final Map<Long, BTreeV1Node<BTreeV1ChunkKey>> cache =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(
                        Map.Entry<Long, BTreeV1Node<BTreeV1ChunkKey>> eldest) {
                    return size() > CACHED_NODES;
                }
            };

    /**
     * The index at {@code rootAddress} (undefined: no chunk written yet) of chunks of
     * {@code chunkShape} with elements of {@code elementSize} bytes, in nodes of 2 x {@code k}
     * children; writable when {@code cache} (its nodes' metadata cache) is not null.
     */
    BTreeV1ChunkIndex(BlockFile file, MetadataCache cache, long rootAddress, long[] chunkShape,
                      int elementSize, int k) {
        this.file = file;
        this.rootAddress = rootAddress;
        this.chunkShape = chunkShape.clone();
        this.elementSize = elementSize;
        this.k = k;
        this.keys = BTreeV1ChunkKey.format(chunkShape.length);
        this.writer = cache == null ? null
                : new BTreeV1Writer<>(file, cache, keys, k, rootAddress);
    }

    @Override
    public ChunkIndexParameters parameters() {
        return new ChunkIndexParameters.BTreeV1();
    }

    @Override
    public long address() {
        return rootAddress;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        if (!Addresses.isDefined(rootAddress)) {
            return ChunkRecord.UNWRITTEN;
        }
        long[] offsets = new long[scaled.length];
        for (int d = 0; d < scaled.length; d++) {
            offsets[d] = scaled[d] * chunkShape[d];
        }
        BTreeV1Node<BTreeV1ChunkKey> node = cachedNode(rootAddress);
        while (true) {
            int i = lastKeyAtMost(node, offsets);
            if (i < 0) {
                return ChunkRecord.UNWRITTEN;
            }
            if (node.level() == 0) {
                BTreeV1ChunkKey key = node.keys().get(i);
                return BTreeV1ChunkKey.compareOffsets(key.offsets(), offsets) == 0
                        ? new ChunkRecord(node.children()[i], key.chunkSize(), key.filterMask())
                        : ChunkRecord.UNWRITTEN;
            }
            BTreeV1Node<BTreeV1ChunkKey> child = cachedNode(node.children()[i]);
            child.requireChildOf(node, file.path()); // levels fall by one: the descent ends
            requireWithinKeys(node, i, child);
            node = child;
        }
    }

    /** The last child whose left key is at or before {@code offsets}, or -1. */
    private static int lastKeyAtMost(BTreeV1Node<BTreeV1ChunkKey> node, long[] offsets) {
        int low = 0;
        int high = node.entries() - 1;
        int found = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (BTreeV1ChunkKey.compareOffsets(node.keys().get(middle).offsets(), offsets) <= 0) {
                found = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return found;
    }

    private BTreeV1Node<BTreeV1ChunkKey> cachedNode(long address) throws IOException {
        BTreeV1Node<BTreeV1ChunkKey> node = cache.get(address);
        if (node == null) {
            node = readNode(address);
            cache.put(address, node);
        }
        return node;
    }

    /**
     * Reads and checks a node the way both lookups and {@link #forEachStoredChunk} need it: the
     * keys a binary search relies on in order (a leaf's strictly ascending and on chunk
     * boundaries), so a damaged key fails instead of hiding a chunk behind the fill value.
     */
    private BTreeV1Node<BTreeV1ChunkKey> readNode(long address) throws IOException {
        BTreeV1Node<BTreeV1ChunkKey> node = writer != null ? writer.node(address)
                : BTreeV1Node.read(file, address, keys, k);
        for (int i = 0; i < node.entries(); i++) {
            long[] offsets = node.keys().get(i).offsets();
            if (node.level() == 0) {
                for (int d = 0; d < chunkShape.length; d++) {
                    if (Long.remainderUnsigned(offsets[d], chunkShape[d]) != 0) {
                        throw corruptKey(node, i, "chunk offsets on chunk boundaries",
                                Arrays.toString(offsets));
                    }
                }
            }
            if (i > 0) {
                long[] before = node.keys().get(i - 1).offsets();
                int order = BTreeV1ChunkKey.compareOffsets(before, offsets);
                if (order > 0 || node.level() == 0 && order == 0) {
                    throw corruptKey(node, i, "offsets after " + Arrays.toString(before),
                            Arrays.toString(offsets));
                }
            }
        }
        return node;
    }

    /**
     * Inserts or replaces the chunk at {@code scaled}.
     *
     * @throws UnsupportedOperationException the index was opened read only
     * @throws UnsupportedFormatException the tree was never allocated (no chunk written by
     *         libhdf5): its address would have to enter the layout message; or SWMR readers
     *         follow the file
     */
    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        if (writer == null) {
            throw new UnsupportedOperationException("this version-1 B-tree index was opened "
                    + "read only");
        }
        if (file.followedByReaders()) {
            // nodes change in place, without checksums: a reader could see half a change
            throw new UnsupportedFormatException(file.path(), "chunk index (writing)",
                    rootAddress, "a version-1 B-tree while SWMR readers follow the file",
                    "version-1 B-trees written without SWMR readers");
        }
        if (!Addresses.isDefined(rootAddress)) {
            throw new UnsupportedFormatException(file.path(), "chunk index (writing)",
                    rootAddress, "a version-1 B-tree libhdf5 never allocated (no chunk written)",
                    "version-1 B-trees holding at least their root node");
        }
        if (record.storedSize() > 0xffffffffL || record.storedSize() <= 0) {
            throw new IllegalArgumentException("a version-1 B-tree key records chunk sizes of "
                    + "1 to 2^32-1 bytes, not " + record.storedSize());
        }
        long[] offsets = new long[scaled.length];
        for (int d = 0; d < scaled.length; d++) {
            offsets[d] = scaled[d] * chunkShape[d];
        }
        writer.insert(new ChunkInsertion(new BTreeV1ChunkKey(record.storedSize(),
                record.filterMask(), offsets), record.address()));
        cache.clear();
    }

    /** One chunk's insertion: libhdf5's H5D__btree_cmp3, _new_node and _insert. */
    private final class ChunkInsertion implements BTreeV1Writer.Item<BTreeV1ChunkKey> {
        private final BTreeV1ChunkKey key;
        private final long address;

        ChunkInsertion(BTreeV1ChunkKey key, long address) {
            this.key = key;
            this.address = address;
        }

        @Override
        public int compare(BTreeV1ChunkKey left, BTreeV1ChunkKey right) {
            if (BTreeV1ChunkKey.compare(key, right) >= 0) {
                return 1;
            }
            return BTreeV1ChunkKey.compare(key, left) < 0 ? -1 : 0;
        }

        @Override
        public BTreeV1Writer.LeafChange<BTreeV1ChunkKey> insert(BTreeV1ChunkKey left,
                long child, BTreeV1ChunkKey right, BTreeV1Writer.Edge edge) {
            return switch (edge) {
                case EMPTY -> new BTreeV1Writer.LeafChange<>(key, address, rightKey(), null,
                        Addresses.UNDEFINED);
                // the chunk becomes the first child, the old first one moves right of it
                case BEFORE_FIRST -> new BTreeV1Writer.LeafChange<>(key, address, null, left,
                        child);
                case AFTER_LAST -> new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED,
                        rightKey(), key, address);
                case WITHIN -> BTreeV1ChunkKey.compareOffsets(key.offsets(), left.offsets()) == 0
                        && left.chunkSize() > 0
                        ? new BTreeV1Writer.LeafChange<>(key.chunkSize() == left.chunkSize()
                                && key.filterMask() == left.filterMask() ? null : key, address,
                                null, null, Addresses.UNDEFINED)
                        : BTreeV1Writer.LeafChange.right(key, address);
            };
        }

        /** The right key libhdf5 writes past a chunk it appends: one chunk further everywhere. */
        private BTreeV1ChunkKey rightKey() {
            long[] end = new long[chunkShape.length];
            for (int d = 0; d < end.length; d++) {
                end[d] = key.offsets()[d] + chunkShape[d];
            }
            return new BTreeV1ChunkKey(0, 0, end, elementSize);
        }
    }

    /**
     * Visits every chunk in offset order, reading each node once: every node reached by one
     * pointer only, one level below its parent, its keys within its parent's and in order
     * ({@link #readNode}, as for lookups), chunk offsets strictly ascending across the leaves.
     */
    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (Addresses.isDefined(rootAddress)) {
            Set<Long> visited = new HashSet<>();
            visited.add(rootAddress);
            walk(readNode(rootAddress), visited, new long[][] {null}, visitor);
        }
    }

    /** Depth first; the recursion is at most 255 levels deep (the level is one byte). */
    private void walk(BTreeV1Node<BTreeV1ChunkKey> node, Set<Long> visited, long[][] previous,
                      StoredChunkVisitor visitor) throws IOException {
        for (int i = 0; i < node.entries(); i++) {
            long child = node.children()[i];
            if (node.level() > 0) {
                if (!visited.add(child)) {
                    throw new CorruptFileException(file.path(), child, "version 1 B-tree node",
                            "address", "a node reached by one pointer only",
                            "a second pointer from the node at " + node.address());
                }
                BTreeV1Node<BTreeV1ChunkKey> next = readNode(child);
                next.requireChildOf(node, file.path());
                requireWithinKeys(node, i, next);
                walk(next, visited, previous, visitor);
                continue;
            }
            BTreeV1ChunkKey key = node.keys().get(i);
            long[] scaled = new long[chunkShape.length];
            for (int d = 0; d < scaled.length; d++) {
                scaled[d] = Long.divideUnsigned(key.offsets()[d], chunkShape[d]);
            }
            if (previous[0] != null
                    && BTreeV1ChunkKey.compareOffsets(previous[0], key.offsets()) >= 0) {
                throw corruptKey(node, i, "offsets after " + Arrays.toString(
                        previous[0]), Arrays.toString(key.offsets()));
            }
            previous[0] = key.offsets();
            visitor.visit(scaled, new ChunkRecord(child, key.chunkSize(), key.filterMask()));
        }
    }

    /**
     * Child {@code i} of {@code parent} holds the chunks between the parent's keys {@code i} and
     * {@code i + 1}, so its own first and last keys lie between them (libhdf5 keeps them
     * equal): a node reached from the wrong place, a shared node included, fails here on a
     * lookup too.
     */
    private void requireWithinKeys(BTreeV1Node<BTreeV1ChunkKey> parent, int i,
                                   BTreeV1Node<BTreeV1ChunkKey> child)
            throws CorruptFileException {
        long[] low = parent.keys().get(i).offsets();
        long[] high = parent.keys().get(i + 1).offsets();
        long[] first = child.keys().get(0).offsets();
        long[] last = child.keys().get(child.entries()).offsets();
        if (BTreeV1ChunkKey.compareOffsets(first, low) < 0
                || BTreeV1ChunkKey.compareOffsets(last, high) > 0) {
            throw new CorruptFileException(file.path(), child.address(), "version 1 B-tree node",
                    "keys", "chunk offsets from " + Arrays.toString(low) + " to "
                            + Arrays.toString(high) + " (keys " + i + " and " + (i + 1)
                            + " of the node at " + parent.address() + ")",
                    Arrays.toString(first) + " to " + Arrays.toString(last));
        }
    }

    private CorruptFileException corruptKey(BTreeV1Node<?> node, int i, String expected,
                                            String found) {
        return new CorruptFileException(file.path(), node.address(), "version 1 B-tree node",
                "key " + i, expected, found);
    }
}
