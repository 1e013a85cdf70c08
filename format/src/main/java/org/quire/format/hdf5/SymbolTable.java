package org.quire.format.hdf5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.LongFunction;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.btree.BTreeV1Writer;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.hdf5.layout.LosslessUtf8;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.SymbolTableNode;

/**
 * The members of an old-style group (libhdf5's default format, H5Gnode.c/H5Gstab.c): its
 * symbol table message points at a version-1 B-tree of node type 0, whose leaves point at
 * symbol table nodes, whose entries name (by offset in the group's local heap) the members'
 * object headers. Read whole, each block once, checking that every node is reached by one
 * pointer only, each child one level below its parent, and the names strictly ascending.
 *
 * <p>Written as libhdf5's H5Gnode.c/H5Gstab.c write it ({@link #insert}): the name goes into the
 * local heap, its entry into the symbol table node whose keys hold it, in name order (the
 * bytes of the names, unsigned: "v10" before "v2"); a full node (2 x group leaf K entries)
 * splits first into two halves, the new node right of it at the end of the file, and the
 * B-tree ({@link BTreeV1Writer}) takes the new node with the largest name of the left half as
 * the key between them. Key 0 of the tree is the empty string (heap offset 0), key i + 1 the
 * largest name under child i; the root never moves.
 *
 * <p>{@link #remove} frees the name (and a soft link's value) in the heap and takes the entry
 * out of its node, as H5G__node_remove; removing a node's last entry makes its right key the
 * new last name, copied up through every parent whose last child it is and into the first key
 * of the right sibling met on the way (libhdf5's H5B__remove_helper, which never merges or
 * rebalances nodes): two descents of {@link BTreeV1Writer}'s insertion, the heap strings
 * freed after both. A node's only entry takes the node out of the tree ({@link
 * BTreeV1Writer#removeChild}), the strings freed after it.
 */
final class SymbolTable {

    /** libhdf5's order of names in a symbol table (strcmp): by their bytes, unsigned. */
    static final Comparator<String> NAME_ORDER = SymbolTable::compareUtf8;

    private final BlockFile file;
    private final BTreeV1Ranks ranks;
    private final LocalHeap heap;
    private final Set<Long> visited = new HashSet<>();
    private final List<LinkMessage> links = new ArrayList<>();

    private SymbolTable(BlockFile file, BTreeV1Ranks ranks, LocalHeap heap) {
        this.file = file;
        this.ranks = ranks;
        this.heap = heap;
    }

    /** The group's members as links, in name order (as h5py lists them). */
    static List<LinkMessage> read(BlockFile file, SymbolTableMessage message, BTreeV1Ranks ranks)
            throws IOException {
        SymbolTable table = new SymbolTable(file, ranks,
                LocalHeap.read(file, message.localHeapAddress()));
        table.visited.add(message.bTreeAddress());
        table.walk(BTreeV1Node.read(file, message.bTreeAddress(), BTreeV1Node.GROUP_KEYS,
                ranks.groupInternalNodeK()));
        return table.links;
    }

    /** Depth first; the recursion is at most 255 levels deep (the level is one byte). */
    private void walk(BTreeV1Node<Long> node) throws IOException {
        for (long child : node.children()) {
            if (!visited.add(child)) {
                throw new CorruptFileException(file.path(), child, node.level() > 0
                        ? "version 1 B-tree node" : "symbol table node", "address",
                        "a node reached by one pointer only",
                        "a second pointer from the node at " + node.address());
            }
            if (node.level() > 0) {
                BTreeV1Node<Long> next = BTreeV1Node.read(file, child, BTreeV1Node.GROUP_KEYS,
                        ranks.groupInternalNodeK());
                next.requireChildOf(node, file.path());
                walk(next);
            } else {
                addEntries(child);
            }
        }
    }

    private void addEntries(long nodeAddress) throws IOException {
        List<SymbolTableEntry> entries = SymbolTableNode.read(file, nodeAddress,
                ranks.groupLeafNodeK()).entries();
        for (int i = 0; i < entries.size(); i++) {
            SymbolTableEntry entry = entries.get(i);
            long entryAt = SymbolTableNode.entryAddress(nodeAddress, i);
            String name = heap.string(entry.linkNameOffset(), entryAt, "symbol table node",
                    "link name offset");
            String previous = links.isEmpty() ? null : links.get(links.size() - 1).name();
            if (previous != null && compareUtf8(previous, name) >= 0) {
                throw new CorruptFileException(file.path(), entryAt, "symbol table node",
                        "link name", "a name after \"" + previous + "\"", "\"" + name + "\"");
            }
            links.add(entry.cacheType() == SymbolTableEntry.CACHE_SOFT_LINK
                    ? LinkMessage.soft(name, heap.string(entry.softLinkValueOffset(),
                            entryAt + SymbolTableEntry.SCRATCH_PAD_OFFSET, "symbol table node",
                            "soft link value offset"))
                    : LinkMessage.hard(name, entry.objectHeaderAddress()));
        }
    }

    /** libhdf5 orders names with strcmp: by their bytes, unsigned. */
    private static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(LosslessUtf8.encode(a), LosslessUtf8.encode(b));
    }

    /**
     * Adds {@code name} to the symbol table {@code message} of group {@code group}, its entry
     * made by {@code entry} from the name's heap offset (H5G__stab_insert). Every block changed
     * goes through {@code blocks}' cache.
     *
     * @throws IllegalArgumentException the name is there already, is empty or holds a NUL
     */
    static void insert(SymbolTableBlocks blocks, SymbolTableMessage message, BTreeV1Ranks ranks,
                       String name, LongFunction<SymbolTableEntry> entry) throws IOException {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("an empty name cannot be linked in a symbol table");
        }
        LocalHeap heap = blocks.heap(message.localHeapAddress());
        writer(blocks, message, ranks).insert(new Insertion(blocks, heap,
                message.bTreeAddress(), LosslessUtf8.encode(name), entry));
    }

    /**
     * Removes {@code name} from the symbol table {@code message} (H5G__stab_remove). A node's
     * last entry takes the node out of the B-tree ({@link BTreeV1Writer#removeChild}); the node
     * itself is left as it was, unreachable.
     *
     * @throws NoSuchElementException the name is not in the table
     */
    static void remove(SymbolTableBlocks blocks, SymbolTableMessage message, BTreeV1Ranks ranks,
                       String name, String group) throws IOException {
        LocalHeap heap = blocks.heap(message.localHeapAddress());
        byte[] bytes = LosslessUtf8.encode(name);
        BTreeV1Writer<Long> tree = writer(blocks, message, ranks);
        Place place = locate(blocks, tree, heap, message.bTreeAddress(), bytes);
        if (place == null) {
            throw new NoSuchElementException(group + " has no member \"" + name + "\"");
        }
        List<SymbolTableEntry> entries = blocks.node(place.node).entries();
        if (entries.size() == 1) {
            SymbolTableEntry only = entries.get(0);
            if (!name.equals(heap.string(only.linkNameOffset(), SymbolTableNode.entryAddress(
                    place.node, 0), "symbol table node", "link name offset"))) {
                throw new NoSuchElementException(group + " has no member \"" + name + "\"");
            }
            tree.removeChild((left, right) -> compareWithKeys(heap, message.bTreeAddress(),
                    bytes, left, right));
            freeStrings(blocks, heap, message.bTreeAddress(), only, bytes);
            return;
        }
        Removal removal = new Removal(blocks, heap, message.bTreeAddress(), bytes);
        tree.insert(removal);
        if (removal.newRight != null && Addresses.isDefined(place.siblingOfLastChild)) {
            SymbolTableEntry first = blocks.node(tree.node(place.siblingOfLastChild)
                    .children()[0]).entries().get(0);
            tree.insert(new LeftKeyChange(heap, message.bTreeAddress(), LosslessUtf8.encode(
                    heap.string(first.linkNameOffset(), place.siblingOfLastChild,
                            "symbol table node", "link name offset")), removal.newRight));
        }
        freeStrings(blocks, heap, message.bTreeAddress(), removal.removed, bytes);
    }

    /** Frees a removed entry's soft link value, then its name, as libhdf5 does. */
    private static void freeStrings(SymbolTableBlocks blocks, LocalHeap heap, long tree,
                                    SymbolTableEntry removed, byte[] name) throws IOException {
        if (removed.cacheType() == SymbolTableEntry.CACHE_SOFT_LINK) {
            String value = heap.string(removed.softLinkValueOffset(), tree,
                    "symbol table node", "soft link value offset");
            heap.remove(removed.softLinkValueOffset(), LosslessUtf8.encode(value).length + 1);
        }
        heap.remove(removed.linkNameOffset(), name.length + 1);
        blocks.heapChanged(heap);
    }

    private static BTreeV1Writer<Long> writer(SymbolTableBlocks blocks, SymbolTableMessage message,
                                              BTreeV1Ranks ranks) {
        return new BTreeV1Writer<>(blocks.file(), blocks.cache(), BTreeV1Node.GROUP_KEYS,
                ranks.groupInternalNodeK(), message.bTreeAddress());
    }

    /**
     * The symbol table node whose keys hold a name, and, when it is the last child of a leaf
     * with a right sibling, that sibling (a change of its right key reaches it: libhdf5 copies
     * it into the sibling's first key); otherwise undefined.
     */
    private record Place(long node, long siblingOfLastChild) {
    }

    /** libhdf5's descent for a removal (H5B__remove_helper's search); null: not there. */
    private static Place locate(SymbolTableBlocks blocks, BTreeV1Writer<Long> tree,
                                LocalHeap heap, long root, byte[] name) throws IOException {
        BTreeV1Node<Long> node = tree.node(root);
        while (true) {
            int n = node.children().length;
            int low = 0;
            int high = n;
            int index = 0;
            int cmp = 1;
            while (low < high && cmp != 0) {
                index = (low + high) >>> 1;
                cmp = compareWithKeys(heap, root, name, node.keys().get(index),
                        node.keys().get(index + 1));
                if (cmp < 0) {
                    high = index;
                } else {
                    low = index + 1;
                }
            }
            if (cmp != 0) {
                return null;
            }
            if (node.level() == 0) {
                // A right key change climbs only from a last child; it reaches a node with a
                // right sibling exactly when this leaf has one (rightmost nodes' parents are
                // rightmost), and the sibling's left edge holds every first key to patch.
                return new Place(node.children()[index], index == n - 1
                        ? node.rightSibling() : Addresses.UNDEFINED);
            }
            BTreeV1Node<Long> child = tree.node(node.children()[index]);
            child.requireChildOf(node, blocks.file().path());
            node = child;
        }
    }

    /**
     * One name on its way out of a group's B-tree: H5G__node_remove, reached by the writer's
     * descent (an existing name lies between its node's keys, as for an insertion). The entry
     * leaves its node at once; its heap strings are freed by {@link #freeStrings}, after every
     * key naming them has changed.
     */
    private static final class Removal implements BTreeV1Writer.Item<Long> {
        private final SymbolTableBlocks blocks;
        private final LocalHeap heap;
        private final long tree;
        private final byte[] name;
        private SymbolTableEntry removed;
        /** The node's new right key when the name was its last, or null. */
        private Long newRight;

        private Removal(SymbolTableBlocks blocks, LocalHeap heap, long tree, byte[] name) {
            this.blocks = blocks;
            this.heap = heap;
            this.tree = tree;
            this.name = name;
        }

        @Override
        public int compare(Long left, Long right) throws IOException {
            return compareWithKeys(heap, tree, name, left, right);
        }

        @Override
        public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                     BTreeV1Writer.Edge edge) throws IOException {
            SymbolTableNode node = blocks.node(child);
            List<SymbolTableEntry> entries = node.entries();
            int index = -1;
            for (int i = 0; i < entries.size() && index < 0; i++) {
                if (Arrays.equals(name, LosslessUtf8.encode(heap.string(
                        entries.get(i).linkNameOffset(), SymbolTableNode.entryAddress(child, i),
                        "symbol table node", "link name offset")))) {
                    index = i;
                }
            }
            if (edge != BTreeV1Writer.Edge.WITHIN || index < 0) {
                throw new IllegalStateException("\"" + LosslessUtf8.decode(name)
                        + "\" was found removable in the symbol table node at " + child);
            }
            removed = node.remove(index);
            blocks.nodeChanged(node, heap.address());
            newRight = index == node.entries().size()
                    ? node.entries().get(index - 1).linkNameOffset() : null;
            return new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED, newRight, null,
                    Addresses.UNDEFINED);
        }
    }

    /**
     * The first key of the right sibling {@code sibling} of a leaf whose right key became
     * {@code key}, and of every node above whose first child it is (libhdf5's "patch keys in
     * neighboring trees"): the writer's descent reaches it with the first name under it.
     */
    private record LeftKeyChange(LocalHeap heap, long tree, byte[] firstName, long key)
            implements BTreeV1Writer.Item<Long> {

        @Override
        public int compare(Long left, Long right) throws IOException {
            return compareWithKeys(heap, tree, firstName, left, right);
        }

        @Override
        public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                     BTreeV1Writer.Edge edge) {
            if (edge != BTreeV1Writer.Edge.WITHIN) {
                throw new IllegalStateException("the first name under a right sibling, \""
                        + LosslessUtf8.decode(firstName) + "\", lies outside its keys");
            }
            return new BTreeV1Writer.LeafChange<>(key, Addresses.UNDEFINED, null, null,
                    Addresses.UNDEFINED);
        }
    }

    /**
     * libhdf5's H5G__node_cmp3: where {@code name} lies against the child between the keys
     * {@code left} and {@code right} (heap offsets of names) of the tree at {@code tree}:
     * negative at or before the left key's name, positive after the right key's, else 0.
     */
    private static int compareWithKeys(LocalHeap heap, long tree, byte[] name, long left,
                                       long right) throws CorruptFileException {
        if (Arrays.compareUnsigned(name, key(heap, tree, left)) <= 0) {
            return -1;
        }
        return Arrays.compareUnsigned(name, key(heap, tree, right)) > 0 ? 1 : 0;
    }

    private static byte[] key(LocalHeap heap, long tree, long offset)
            throws CorruptFileException {
        return LosslessUtf8.encode(heap.string(offset, tree, "version 1 B-tree node",
                "name offset key"));
    }

    /** One name on its way into a group's B-tree: libhdf5's H5G__node_cmp3 and H5G__node_insert. */
    private record Insertion(SymbolTableBlocks blocks, LocalHeap heap, long tree, byte[] name,
                             LongFunction<SymbolTableEntry> entry)
            implements BTreeV1Writer.Item<Long> {

        @Override
        public int compare(Long left, Long right) throws IOException {
            return compareWithKeys(heap, tree, name, left, right);
        }

        @Override
        public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                     BTreeV1Writer.Edge edge) throws IOException {
            if (edge == BTreeV1Writer.Edge.EMPTY) {
                // H5G__node_create: the first node's keys both name the heap's empty string.
                if (!heap.string(0, tree, "version 1 B-tree node", "name offset key").isEmpty()) {
                    throw new UnsupportedFormatException(blocks.file().path(), "local heap",
                            heap.dataAddress(), "a name at offset 0",
                            "the empty string at offset 0 (libhdf5's first key)");
                }
                SymbolTableNode node = blocks.newNode();
                long offset = add(node, 0);
                return new BTreeV1Writer.LeafChange<>(0L, node.address(), offset, null,
                        Addresses.UNDEFINED);
            }
            SymbolTableNode node = blocks.node(child);
            int index = place(node);
            int count = node.entries().size();
            if (!node.isFull()) {
                long offset = add(node, index);
                return new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED,
                        index == count ? offset : null, null, Addresses.UNDEFINED);
            }
            int k = count / 2;
            long offset = heapInsert();
            SymbolTableNode split = blocks.newNode();
            node.splitInto(split);
            long middle = node.entries().get(k - 1).linkNameOffset();
            Long newRight = null;
            SymbolTableNode into = node;
            if (index == k) {
                middle = offset;
            } else if (index > k) {
                index -= k;
                into = split;
                if (index == k) {
                    newRight = offset;
                }
            }
            into.insert(index, entry.apply(offset));
            blocks.nodeChanged(node, heap.address());
            blocks.nodeChanged(split, heap.address());
            return new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED, newRight, middle,
                    split.address());
        }

        /** libhdf5's binary search for the name's place among the node's entries. */
        private int place(SymbolTableNode node) throws CorruptFileException {
            List<SymbolTableEntry> entries = node.entries();
            if (entries.isEmpty()) {
                return 0;
            }
            int low = 0;
            int high = entries.size();
            int index = 0;
            int cmp = 1;
            while (low < high) {
                index = (low + high) >>> 1;
                long nameAt = SymbolTableNode.entryAddress(node.address(), index);
                cmp = Arrays.compareUnsigned(name, LosslessUtf8.encode(heap.string(
                        entries.get(index).linkNameOffset(), nameAt, "symbol table node",
                        "link name offset")));
                if (cmp == 0) {
                    throw new IllegalArgumentException("\"" + LosslessUtf8.decode(name)
                            + "\" is linked in the symbol table already");
                }
                if (cmp < 0) {
                    high = index;
                } else {
                    low = index + 1;
                }
            }
            return cmp > 0 ? index + 1 : index;
        }

        private long heapInsert() throws IOException {
            long offset = heap.insert(name, length -> blocks.file().allocate(length));
            blocks.heapChanged(heap);
            return offset;
        }

        private long add(SymbolTableNode node, int index) throws IOException {
            long offset = heapInsert();
            node.insert(index, entry.apply(offset));
            blocks.nodeChanged(node, heap.address());
            return offset;
        }
    }
}
