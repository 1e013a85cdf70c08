package org.quire.format.hdf5.btree;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;

/**
 * Inserts into a version-1 B-tree (specification III.A.1) of either node type the way
 * libhdf5's H5B.c does, so the file looks as if libhdf5 had written it (and drops a group
 * tree's emptied child as H5B.c does: {@link #removeChild}):
 * <ul>
 * <li>the descent picks child {@code i} by the item's {@link Item#compare} against keys
 * {@code i} and {@code i + 1}; an item before the first key or after the last goes to the
 * first or last child ({@link Edge});</li>
 * <li>at level 0 the node type's own insertion ({@link Item#insert}) says what changes: the
 * child's bounding keys, its address, or a new child right of it with the key between them;
 * changed first/last keys are copied up into every parent whose first/last child changed;</li>
 * <li>a full node (2K children) splits before the new child goes in: a node with no right
 * sibling keeps {@code floor(2K x 0.9)} children, one with no left sibling
 * {@code floor(2K x 0.1)}, any other half (libhdf5's default split ratios); the new node is
 * allocated at the end of the file, linked between the node and its right sibling (whose left
 * pointer is rewritten), and the key they share goes up;</li>
 * <li>when the root splits it stays where it is: its content is copied to a new node at the
 * end of the file (allocated after the split node) and the root is rewritten in place one level
 * higher with the two as its children, so the symbol table message, the layout message and
 * the scratch pads cached in symbol table entries keep pointing at it.</li>
 * </ul>
 *
 * <p>API for callers (group trees: {@code SymbolTable}; chunk trees: {@code
 * BTreeV1ChunkIndex}): construct one writer per tree with the file (its {@link
 * BlockFile#allocate} places new nodes at the end), the {@link MetadataCache} every node goes
 * through, the key format ({@link BTreeV1Node#GROUP_KEYS}, {@code BTreeV1ChunkKey.format(rank)}),
 * K (the superblock's group internal K or indexed storage K), the root address and
 * optionally the {@link NodeCheck} its reader applies; then call {@link #insert} with an {@link
 * Item} per insertion. An insertion reads and checks every node it may change before it changes
 * one, so a damaged node fails it with the tree unchanged; after a failure past that point the
 * writer refuses every call. Nodes are {@link BlockEntry} metadata
 * entries whose value is the node ({@link #node} reads the current state through the cache:
 * read nodes that way while the cache may hold changes); every changed or new node is marked
 * dirty, and flush dependencies follow the pointers (a node is written after the children it
 * points at that the cache holds, chunks and symbol table nodes included), so the caller's
 * {@code flush} writes children first. The writer keeps no node itself between calls.
 *
 * @param <K> the key of the node type
 */
public final class BTreeV1Writer<K> {

    /** libhdf5's default B-tree split ratios (its transfer property: left, middle, right). */
    private static final double SPLIT_LEFT = 0.1;
    private static final double SPLIT_MIDDLE = 0.5;
    private static final double SPLIT_RIGHT = 0.9;

    /** Where the item lies against the keys of the level-0 child it is offered. */
    public enum Edge {
        /** The tree is empty: the item must become its first child. */
        EMPTY,
        /** Before the first key of the tree. */
        BEFORE_FIRST,
        /** Between the child's keys. */
        WITHIN,
        /** Past the last key of the tree (at or past it, as chunk keys compare). */
        AFTER_LAST
    }

    /**
     * What an insertion at level 0 changed in the child it was offered: any field may be null
     * (or undefined) for "unchanged" / "no new child".
     *
     * @param left the child's new left key (keys[i])
     * @param child the child's new address (a chunk rewritten elsewhere)
     * @param right the child's new right key (keys[i + 1])
     * @param middle the key between the child and the new child right of it
     * @param newChild a new child right of the child, or undefined
     */
    public record LeafChange<K>(K left, long child, K right, K middle, long newChild) {

        /** A new child right of the child, {@code middle} between them. */
        public static <K> LeafChange<K> right(K middle, long newChild) {
            return new LeafChange<>(null, Addresses.UNDEFINED, null, middle, newChild);
        }

        boolean addsChild() {
            return Addresses.isDefined(newChild);
        }
    }

    /** How an item compares with keys: what a descent needs. */
    @FunctionalInterface
    public interface Search<K> {

        /**
         * libhdf5's "cmp3": negative when the item lies before {@code left}, positive when it
         * lies after {@code right} (at or after for chunk keys), 0 when the child between them
         * takes it.
         */
        int compare(K left, K right) throws IOException;
    }

    /** One insertion: how the item compares with keys, and what the node type does at level 0. */
    public interface Item<K> extends Search<K> {

        /**
         * Inserts the item into (or beside) the level-0 child {@code child} between {@code left}
         * and {@code right} (for {@link Edge#EMPTY}: all three null/undefined; the change must
         * then give left, child and right of the first child).
         */
        LeafChange<K> insert(K left, long child, K right, Edge edge) throws IOException;
    }

    /** A node as the cache holds it: changed in place by the insertion. */
    private static final class Node<K> {
        int level;
        final List<K> keys;
        final List<Long> children;
        long left;
        long right;

        Node(int level, List<K> keys, List<Long> children, long left, long right) {
            this.level = level;
            this.keys = keys;
            this.children = children;
            this.left = left;
            this.right = right;
        }

        static <K> Node<K> of(BTreeV1Node<K> read) {
            List<Long> children = new ArrayList<>(read.children().length);
            for (long child : read.children()) {
                children.add(child);
            }
            return new Node<>(read.level(), new ArrayList<>(read.keys()), children,
                    read.leftSibling(), read.rightSibling());
        }

        BTreeV1Node<K> snapshot(long address) {
            long[] addresses = new long[children.size()];
            for (int i = 0; i < addresses.length; i++) {
                addresses[i] = children.get(i);
            }
            return new BTreeV1Node<>(address, level, List.copyOf(keys), addresses, left, right);
        }
    }

    /** After an insertion below a node: its changed edge keys and the node split off it. */
    private record Result<K>(boolean leftChanged, boolean rightChanged,
                             BlockEntry<Node<K>> split) {
    }

    /** A node on an insertion's path: child {@code i} takes the item ({@link Edge#EMPTY}: -1). */
    private record Step<K>(BlockEntry<Node<K>> entry, int i, Edge edge) {
    }

    /**
     * The checks a tree's reader applies to the nodes it reads, applied to every node an
     * insertion reads before it changes anything.
     */
    @FunctionalInterface
    public interface NodeCheck<K> {
        /**
         * Fails when {@code node}, reached as child {@code i} of {@code parent} (null for the
         * root and for a sibling about to be relinked), is damaged.
         */
        void check(BTreeV1Node<K> parent, int i, BTreeV1Node<K> node) throws CorruptFileException;
    }

    private final BlockFile file;
    private final MetadataCache cache;
    private final BTreeV1Node.KeyFormat<K> format;
    private final int k;
    private final long root;
    private final int nodeSize;
    private final NodeCheck<K> check;
    /** Why a change failed after its first change (the cache holds half of it), or null. */
    private String broken;

    /** The tree rooted at {@code root}, in nodes of 2 x {@code k} children. */
    public BTreeV1Writer(BlockFile file, MetadataCache cache, BTreeV1Node.KeyFormat<K> format,
                         int k, long root) {
        this(file, cache, format, k, root, (parent, i, node) -> { });
    }

    /**
     * The tree rooted at {@code root}, in nodes of 2 x {@code k} children, each node an
     * insertion reads passing {@code check}.
     */
    public BTreeV1Writer(BlockFile file, MetadataCache cache, BTreeV1Node.KeyFormat<K> format,
                         int k, long root, NodeCheck<K> check) {
        this.file = file;
        this.cache = cache;
        this.format = format;
        this.k = k;
        this.root = root;
        this.nodeSize = BTreeV1Node.size(k, format.keySize());
        this.check = check;
    }

    /**
     * The node at {@code address} as it is now (the cache's version if it holds one).
     *
     * @throws IllegalStateException an earlier insertion failed half way
     */
    public BTreeV1Node<K> node(long address) throws IOException {
        requireIntact();
        BlockEntry<Node<K>> entry = protect(address);
        try {
            return entry.value().snapshot(address);
        } finally {
            cache.unprotect(entry);
        }
    }

    /**
     * Inserts {@code item} (libhdf5's H5B_insert). Every node the insertion may change (its
     * path from the root, and the right siblings a split relinks) is read and checked, and the
     * item's own {@link Item#insert} done, before the first change: a damaged node fails the
     * insertion with the tree as it was. Should anything fail after that (the cache evicting
     * to storage that fails), the writer refuses every later call.
     *
     * @throws IllegalStateException an earlier insertion failed half way
     */
    public void insert(Item<K> item) throws IOException {
        change(held -> {
            List<Step<K>> path = descend(item, held);
            Map<Long, BlockEntry<Node<K>>> siblings = siblings(path, held);
            Step<K> leaf = path.get(path.size() - 1);
            Node<K> node = leaf.entry().value();
            LeafChange<K> change = leaf.edge() == Edge.EMPTY
                    ? item.insert(null, Addresses.UNDEFINED, null, Edge.EMPTY)
                    : item.insert(node.keys.get(leaf.i()), node.children.get(leaf.i()),
                            node.keys.get(leaf.i() + 1), leaf.edge());
            return () -> {
                Result<K> result = apply(path, 0, change, siblings, held);
                if (result.split() != null) {
                    splitRoot(path.get(0).entry(), result.split(), held);
                }
            };
        });
    }

    /**
     * Drops the level-0 child whose keys hold {@code item} from a tree of node type 0 (group
     * nodes: the right key of a child is its critical key), as libhdf5's H5B__remove_helper
     * does when the symbol table node below returns H5B_INS_REMOVE (its last entry left):
     * <ul>
     * <li>every node on the path left with no child is dropped (its space not reused): its left
     * neighbour takes its right sibling pointer, its right neighbour its left sibling pointer
     * and its first key;</li>
     * <li>the deepest node keeping children loses the child and the key right of it; when that
     * was its last child, its new last key is copied into its right neighbour's first key and up
     * into every parent (and that parent's right neighbour) whose last child it is;</li>
     * <li>a root left with no child stays where it is, level 0 with no children (its key 0
     * kept), so the next insertion starts the tree again.</li>
     * </ul>
     * Every node it changes (path and neighbours) is read and checked first, as for {@link
     * #insert}; a failure after the first change leaves the writer refusing every call.
     *
     * @throws IllegalArgumentException no child's keys hold the item
     * @throws IllegalStateException    an earlier change failed half way
     */
    public void removeChild(Search<K> item) throws IOException {
        change(held -> {
            if (format.nodeType() != BTreeV1Node.GROUP_KEYS.nodeType()) {
                throw new UnsupportedOperationException(file.path() + ": the version 1 B-tree at "
                        + root + " is of node type " + format.nodeType()
                        + "; children are removed from group trees (type 0) only");
            }
            List<Step<K>> path = descend(item, held);
            if (path.get(path.size() - 1).edge() != Edge.WITHIN) {
                throw new IllegalArgumentException(file.path() + ": no child of the version 1 "
                        + "B-tree at " + root + " holds the item to remove");
            }
            int keeper = path.size() - 1;
            while (keeper > 0 && path.get(keeper).entry().value().children.size() == 1) {
                keeper--;
            }
            Map<Long, BlockEntry<Node<K>>> neighbours = new HashMap<>();
            for (int p = keeper + 1; p < path.size(); p++) {
                Node<K> dropped = path.get(p).entry().value();
                neighbour(path.get(p).entry(), dropped.left, neighbours, held);
                neighbour(path.get(p).entry(), dropped.right, neighbours, held);
            }
            Step<K> cut = path.get(keeper);
            Node<K> kept = cut.entry().value();
            int i = cut.i();
            // the keeper's new last key climbs when it loses its last child (and keeps others)
            boolean climbs = kept.children.size() > 1 && i == kept.children.size() - 1;
            for (int p = keeper; climbs && p >= 0 && isLastChild(path, p, keeper); p--) {
                Step<K> step = path.get(p);
                neighbour(step.entry(), step.entry().value().right, neighbours, held);
            }
            int keeperLevel = keeper;
            return () -> {
                for (int p = keeperLevel + 1; p < path.size(); p++) {
                    drop(path.get(p).entry().value(), neighbours);
                }
                kept.children.remove(i);
                if (kept.children.isEmpty()) {
                    kept.keys.subList(1, kept.keys.size()).clear();
                    kept.level = 0;
                } else {
                    kept.keys.remove(i + 1);
                }
                changed(cut.entry());
                if (climbs) {
                    climbKey(path, keeperLevel, kept.keys.get(kept.keys.size() - 1), neighbours);
                }
            };
        });
    }

    /**
     * Copies the keeper's new last {@code key} into each node the change climbs through (the
     * parent's key right of the path) and into their right neighbours' first keys.
     */
    private void climbKey(List<Step<K>> path, int keeper, K key,
                          Map<Long, BlockEntry<Node<K>>> neighbours) throws IOException {
        for (int p = keeper; p >= 0; p--) {
            Step<K> step = path.get(p);
            Node<K> node = step.entry().value();
            if (p < keeper) {
                node.keys.set(step.i() + 1, key);
                changed(step.entry());
            }
            if (!isLastChild(path, p, keeper)) {
                break;
            }
            BlockEntry<Node<K>> right = neighbours.get(node.right);
            if (right != null) {
                right.value().keys.set(0, key);
                changed(right);
            }
        }
    }

    /** The part of a change made after every node it touches was read, checked and held. */
    private interface Apply {
        void run() throws IOException;
    }

    /** Reads, checks and holds (in {@code held}) every node a change touches; changes nothing. */
    private interface Prepare {
        Apply run(List<BlockEntry<?>> held) throws IOException;
    }

    /**
     * Prepares a change and applies it; a failure while applying leaves the cache holding half
     * of it, so the writer then refuses every call. The held nodes are released either way.
     */
    private void change(Prepare prepare) throws IOException {
        requireIntact();
        List<BlockEntry<?>> held = new ArrayList<>();
        try {
            Apply apply = prepare.run(held);
            try {
                apply.run();
            } catch (Throwable failure) {
                broken = failure.toString();
                throw failure;
            }
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                cache.unprotect(held.get(i));
            }
        }
    }

    /**
     * Whether the key change climbing from the keeper passes node {@code p} of {@code path} on
     * (to its right neighbour and its parent): the keeper always, a node above it when the
     * child the path takes is its last.
     */
    private static <K> boolean isLastChild(List<Step<K>> path, int p, int keeper) {
        Step<K> step = path.get(p);
        return p == keeper || step.i() == step.entry().value().children.size() - 1;
    }

    /** Reads, checks and holds the neighbour at {@code address} of {@code entry}, if defined. */
    private void neighbour(BlockEntry<Node<K>> entry, long address,
                           Map<Long, BlockEntry<Node<K>>> neighbours, List<BlockEntry<?>> held)
            throws IOException {
        if (!Addresses.isDefined(address) || neighbours.containsKey(address)) {
            return;
        }
        BlockEntry<Node<K>> sibling = protect(address);
        held.add(sibling);
        neighbours.put(address, sibling);
        BTreeV1Node<K> read = sibling.value().snapshot(address);
        if (read.level() != entry.value().level) {
            throw corrupt(address + BTreeV1Node.LEVEL_OFFSET, "node level",
                    entry.value().level + " (the level of its sibling at " + entry.address() + ")",
                    Integer.toString(read.level()));
        }
        check.check(null, -1, read);
    }

    /** Unlinks the emptied node {@code node} from its neighbours (H5B__remove_helper). */
    private void drop(Node<K> node, Map<Long, BlockEntry<Node<K>>> neighbours) {
        BlockEntry<Node<K>> left = neighbours.get(node.left);
        if (left != null) {
            left.value().right = node.right;
            changed(left);
        }
        BlockEntry<Node<K>> right = neighbours.get(node.right);
        if (right != null) {
            right.value().keys.set(0, node.keys.get(0));
            right.value().left = node.left;
            changed(right);
        }
    }

    private void requireIntact() {
        if (broken != null) {
            throw new IllegalStateException(file.path() + ": the version 1 B-tree at " + root
                    + " is half changed by a change that failed (" + broken
                    + "); nothing more is read or written through it");
        }
    }

    /** The path of {@code item} from the root, each node protected, checked and held. */
    private List<Step<K>> descend(Search<K> item, List<BlockEntry<?>> held) throws IOException {
        List<Step<K>> path = new ArrayList<>();
        BlockEntry<Node<K>> entry = protect(root);
        held.add(entry);
        BTreeV1Node<K> node = entry.value().snapshot(root);
        check.check(null, -1, node);
        while (true) {
            Step<K> step = step(entry, item);
            path.add(step);
            if (node.level() == 0) {
                return path;
            }
            BlockEntry<Node<K>> child = protect(node.children()[step.i()]);
            held.add(child);
            BTreeV1Node<K> below = child.value().snapshot(child.address());
            below.requireChildOf(node, file.path());
            check.check(node, step.i(), below);
            entry = child;
            node = below;
        }
    }

    /** libhdf5's binary search: it stops at the first child whose keys hold the item. */
    private Step<K> step(BlockEntry<Node<K>> entry, Search<K> item) throws IOException {
        Node<K> node = entry.value();
        int n = node.children.size();
        if (n == 0) {
            if (node.level != 0) {
                throw corrupt(entry.address() + BTreeV1Node.ENTRIES_USED_OFFSET, "entries used",
                        "children below level " + node.level, "0");
            }
            return new Step<>(entry, -1, Edge.EMPTY);
        }
        int low = 0;
        int high = n;
        int i = 0;
        int cmp = -1;
        while (low < high && cmp != 0) {
            i = (low + high) >>> 1;
            cmp = item.compare(node.keys.get(i), node.keys.get(i + 1));
            if (cmp < 0) {
                high = i;
            } else {
                low = i + 1;
            }
        }
        if (cmp < 0 && i == 0) {
            return new Step<>(entry, 0, Edge.BEFORE_FIRST);
        } else if (cmp > 0 && i + 1 >= n) {
            return new Step<>(entry, n - 1, Edge.AFTER_LAST);
        } else if (cmp != 0) {
            throw corrupt(entry.address(), "keys", "keys in order around child " + i,
                    "an item after key " + i + " and before key " + (i + 1));
        }
        return new Step<>(entry, i, Edge.WITHIN);
    }

    /**
     * The right siblings a split may relink, protected, checked and held: those of the full
     * nodes from the leaf up (a node splits only when it is full and the one below it split or,
     * the leaf, took a new child).
     */
    private Map<Long, BlockEntry<Node<K>>> siblings(List<Step<K>> path, List<BlockEntry<?>> held)
            throws IOException {
        Map<Long, BlockEntry<Node<K>>> siblings = new HashMap<>();
        for (int p = path.size() - 1; p >= 0; p--) {
            Node<K> node = path.get(p).entry().value();
            if (node.children.size() != 2 * k) {
                break;
            }
            if (Addresses.isDefined(node.right)) {
                BlockEntry<Node<K>> sibling = protect(node.right);
                held.add(sibling);
                BTreeV1Node<K> read = sibling.value().snapshot(node.right);
                if (read.level() != node.level) {
                    throw corrupt(node.right + BTreeV1Node.LEVEL_OFFSET, "node level",
                            node.level + " (the level of its left sibling at "
                                    + path.get(p).entry().address() + ")",
                            Integer.toString(read.level()));
                }
                check.check(null, -1, read);
                siblings.put(node.right, sibling);
            }
        }
        return siblings;
    }

    /** Changes the node at {@code depth} of {@code path} and those below it; reads nothing. */
    private Result<K> apply(List<Step<K>> path, int depth, LeafChange<K> change,
                            Map<Long, BlockEntry<Node<K>>> siblings, List<BlockEntry<?>> held)
            throws IOException {
        Step<K> step = path.get(depth);
        BlockEntry<Node<K>> entry = step.entry();
        Node<K> node = entry.value();
        if (step.edge() == Edge.EMPTY) {
            node.keys.clear();
            node.keys.add(change.left());
            node.keys.add(change.right());
            node.children.add(change.child());
            changed(entry);
            return new Result<>(true, true, null);
        }
        int n = node.children.size();
        int i = step.i();
        boolean leftChanged;
        boolean rightChanged;
        K middle = null;
        long newChild = Addresses.UNDEFINED;
        if (depth + 1 < path.size()) {
            Result<K> below = apply(path, depth + 1, change, siblings, held);
            Node<K> changedChild = path.get(depth + 1).entry().value();
            leftChanged = below.leftChanged();
            rightChanged = below.rightChanged();
            if (leftChanged) {
                node.keys.set(i, changedChild.keys.get(0));
            }
            if (rightChanged) {
                Node<K> last = below.split() != null ? below.split().value() : changedChild;
                node.keys.set(i + 1, last.keys.get(last.keys.size() - 1));
            }
            if (below.split() != null) {
                middle = below.split().value().keys.get(0);
                newChild = below.split().address();
            }
        } else {
            leftChanged = change.left() != null;
            rightChanged = change.right() != null;
            if (leftChanged) {
                node.keys.set(i, change.left());
            }
            if (rightChanged) {
                node.keys.set(i + 1, change.right());
            }
            if (Addresses.isDefined(change.child())) {
                node.children.set(i, change.child());
                changed(entry);
            }
            if (change.addsChild()) {
                middle = change.middle();
                newChild = change.newChild();
            }
        }
        if (leftChanged || rightChanged) {
            changed(entry);
        }
        // only the node's own first/last keys concern its parent
        leftChanged &= i == 0;
        rightChanged &= i + 1 == n;
        BlockEntry<Node<K>> split = null;
        if (Addresses.isDefined(newChild)) {
            BlockEntry<Node<K>> target = entry;
            int at = i;
            if (n == 2 * k) {
                split = split(entry, i, siblings, held);
                if (at >= node.children.size()) {
                    at -= node.children.size();
                    target = split;
                }
            }
            target.value().keys.add(at + 1, middle);
            target.value().children.add(at + 1, newChild);
            changed(target);
        }
        return new Result<>(leftChanged, rightChanged, split);
    }

    /**
     * Splits the full node {@code entry} (libhdf5's H5B__split): a new node right of it takes
     * its last children; {@code i} is the child about to get a new sibling, which stays with
     * its node.
     */
    private BlockEntry<Node<K>> split(BlockEntry<Node<K>> entry, int i,
                                      Map<Long, BlockEntry<Node<K>>> siblings,
                                      List<BlockEntry<?>> held) throws IOException {
        Node<K> node = entry.value();
        int twoK = 2 * k;
        double ratio = !Addresses.isDefined(node.right) ? SPLIT_RIGHT
                : !Addresses.isDefined(node.left) ? SPLIT_LEFT : SPLIT_MIDDLE;
        int keep = (int) (twoK * ratio);
        if (i < keep && keep == twoK) {
            keep--;
        } else if (i >= keep && keep == 0) {
            keep++;
        }
        long address = file.allocate(nodeSize);
        Node<K> right = new Node<>(node.level, new ArrayList<>(node.keys.subList(keep, twoK + 1)),
                new ArrayList<>(node.children.subList(keep, twoK)), entry.address(), node.right);
        node.keys.subList(keep + 1, twoK + 1).clear();
        node.children.subList(keep, twoK).clear();
        BlockEntry<Node<K>> created = cache.insertProtected(entry(address, right));
        held.add(created);
        if (Addresses.isDefined(node.right)) {
            BlockEntry<Node<K>> sibling = siblings.get(node.right);
            sibling.value().left = address;
            changed(sibling);
        }
        node.right = address;
        changed(entry);
        changed(created);
        return created;
    }

    /**
     * The root split: its content moves to a new node at the end of the file and the root, at
     * its address, becomes the parent of that node and {@code split}.
     */
    private void splitRoot(BlockEntry<Node<K>> top, BlockEntry<Node<K>> split,
                           List<BlockEntry<?>> held) throws IOException {
        Node<K> old = top.value();
        long moved = file.allocate(nodeSize);
        Node<K> copy = new Node<>(old.level, new ArrayList<>(old.keys),
                new ArrayList<>(old.children), Addresses.UNDEFINED, old.right);
        BlockEntry<Node<K>> copied = cache.insertProtected(entry(moved, copy));
        held.add(copied);
        changed(copied);
        split.value().left = moved;
        changed(split);
        K first = old.keys.get(0);
        K middle = split.value().keys.get(0);
        K last = split.value().keys.get(split.value().keys.size() - 1);
        old.level++;
        old.keys.clear();
        old.keys.add(first);
        old.keys.add(middle);
        old.keys.add(last);
        old.children.clear();
        old.children.add(moved);
        old.children.add(split.address());
        old.left = Addresses.UNDEFINED;
        old.right = Addresses.UNDEFINED;
        changed(top);
    }

    /** Marks {@code entry} dirty; it is written after every child of it the cache holds. */
    private void changed(BlockEntry<Node<K>> entry) {
        cache.markDirty(entry);
        for (long child : entry.value().children) {
            if (cache.contains(child)) {
                cache.createFlushDependency(entry.address(), child);
            }
        }
    }

    private BlockEntry<Node<K>> entry(long address, Node<K> node) {
        return BlockEntry.metadata(address, nodeSize, node,
                value -> value.snapshot(address).encode(format, k));
    }

    @SuppressWarnings("unchecked")
    private BlockEntry<Node<K>> protect(long address) throws IOException {
        return cache.protect(address, BlockEntry.class,
                (at, storage) -> entry(at, Node.of(BTreeV1Node.read(file, at, format, k))));
    }

    private CorruptFileException corrupt(long address, String field, String expected,
                                         String found) {
        return new CorruptFileException(file.path(), address, "version 1 B-tree node", field,
                expected, found);
    }
}
