package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;


import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV2ChunkRecord;
import org.quire.format.hdf5.layout.BTreeV2Geometry;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2InternalNode;
import org.quire.format.hdf5.layout.BTreeV2LeafNode;
import org.quire.format.hdf5.layout.BTreeV2Walk;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;

/**
 * Version-2 B-tree chunk index (layout index type 5), used for datasets with more than one
 * unlimited dimension: one record per written chunk, keyed by the chunk's scaled coordinates.
 *
 * <p>Nodes are metadata cache entries, held only while an operation passes them. A new record goes into
 * its leaf; a node that then holds more records than it can splits around its middle record,
 * which moves up into the parent (a new root when the root splits, so the tree grows at the
 * top). Every node takes the tree's node size in the file and keeps its address for life; a
 * rewritten chunk's record is replaced where it is. While SWMR readers follow the file, a node
 * a flushed state reaches is never rewritten: the path to a change is copied to new space
 * instead ({@code movedForReaders}). Flush dependencies follow the pointers:
 * header → root → ... → leaves → the chunks their records point at; a split moves the
 * dependencies of the children it moves to the new node.
 */
public final class BTreeV2ChunkIndex implements ChunkIndex {

    private final IndexBlocks blocks;
    private final long headerAddress;
    private final ChunkIndexParameters.BTreeV2 parameters;
    private final BTreeV2ChunkRecord.Format format;
    private final BTreeV2Geometry geometry;
    /** The header's pointer to the root; its address is undefined while the tree is empty. */
    private final Child root;
    private int depth;
    /** The header of a writable tree (its value is this index), null when read only. */
    private BlockEntry<BTreeV2ChunkIndex> header;

    /** A pointer to a node: what its parent (or the header) records about it. */
    private static final class Child {
        long address;
        int records;
        long totalRecords;

        Child(long address, int records, long totalRecords) {
            this.address = address;
            this.records = records;
            this.totalRecords = totalRecords;
        }
    }

    /** A node's contents: its depth (0 for a leaf), records in order and, above leaves, children. */
    private record Node(int depth, List<BTreeV2ChunkRecord> records, List<Child> children) {
    }

    /** The record that moved up out of a split node, and the new node right of it (protected). */
    private record Split(BTreeV2ChunkRecord middle, Child right, BlockEntry<Node> entry) {
    }

    /**
     * After an insertion below a node: the node as it is now (another, protected entry when it
     * moved for readers) and the split, if it split.
     */
    private record Inserted(BlockEntry<Node> node, Split split) {
    }

    private BTreeV2ChunkIndex(IndexBlocks blocks, long headerAddress,
                              ChunkIndexParameters.BTreeV2 parameters,
                              BTreeV2ChunkRecord.Format format, BTreeV2Geometry geometry,
                              Child root, int depth) {
        this.blocks = blocks;
        this.headerAddress = headerAddress;
        this.parameters = parameters;
        this.format = format;
        this.geometry = geometry;
        this.root = root;
        this.depth = depth;
    }

    /** Allocates a new, empty tree with libhdf5's default parameters. */
    static BTreeV2ChunkIndex create(IndexBlocks blocks, ChunkRecordFormat chunkFormat, int rank,
                                    long unfilteredChunkSize) throws IOException {
        ChunkIndexParameters.BTreeV2 parameters = ChunkIndexParameters.BTreeV2.DEFAULT;
        BTreeV2ChunkRecord.Format format = new BTreeV2ChunkRecord.Format(chunkFormat, rank,
                unfilteredChunkSize);
        BTreeV2ChunkIndex index = new BTreeV2ChunkIndex(blocks,
                blocks.file().allocate(BTreeV2Header.SIZE), parameters, format,
                BTreeV2Geometry.of(parameters.nodeSize(), format.size()),
                new Child(Addresses.UNDEFINED, 0, 0), 0);
        index.header = blocks.create(index.headerAddress, BTreeV2Header.SIZE, index,
                BTreeV2ChunkIndex::encodeHeader);
        return index;
    }

    private byte[] encodeHeader() {
        return new BTreeV2Header<>(format, geometry.nodeSize(), depth,
                parameters.splitPercent(), parameters.mergePercent(), root.address,
                root.records, root.totalRecords).encode();
    }

    /** Bytes of every node in the file (at most a few KiB: the B-tree's node size). */
    private int nodeSize() {
        return (int) geometry.nodeSize();
    }

    private byte[] encodeNode(Node node) {
        if (node.depth() == 0) {
            return new BTreeV2LeafNode<>(node.records()).encode(format, geometry);
        }
        List<BTreeV2InternalNode.ChildPointer> pointers = new ArrayList<>();
        for (Child child : node.children()) {
            pointers.add(new BTreeV2InternalNode.ChildPointer(child.address, child.records,
                    child.totalRecords));
        }
        return new BTreeV2InternalNode<>(node.records(), pointers).encode(format, geometry,
                node.depth());
    }

    /**
     * Opens the tree at {@code address} of a {@code rank}-dimensional dataset; checks the
     * header against the layout message's {@code expected} parameters and the filters. A
     * {@code writable} tree holds its header as a cache entry (it changes with the root).
     */
    static BTreeV2ChunkIndex open(IndexBlocks blocks, long address,
                                  ChunkIndexParameters.BTreeV2 expected, int rank,
                                  long unfilteredChunkSize, boolean filtered, boolean writable)
            throws IOException {
        BlockFile file = blocks.file();
        BTreeV2Header<BTreeV2ChunkRecord> header = BTreeV2Header.read(file, address, rank,
                unfilteredChunkSize);
        BTreeV2ChunkRecord.Format format = (BTreeV2ChunkRecord.Format) header.format();
        String structure = BTreeV2Header.IDENTITY.structure();
        ChunkIndexParameters.BTreeV2 parameters = new ChunkIndexParameters.BTreeV2(
                header.nodeSize(), header.splitPercent(), header.mergePercent());
        if (!parameters.equals(expected)) {
            throw new CorruptFileException(file.path(), address, structure,
                    "creation parameters", expected + " (from the data layout message)",
                    parameters.toString());
        }
        if (format.chunk().filtered() != filtered) {
            throw new CorruptFileException(file.path(), address, structure, "type",
                    filtered ? "11 (filtered chunks)" : "10 (unfiltered chunks)",
                    Integer.toString(format.type()));
        }
        BTreeV2ChunkIndex index = new BTreeV2ChunkIndex(blocks, address, parameters, format,
                header.geometry(), new Child(header.rootAddress(),
                        header.rootRecords(), header.totalRecords()), header.depth());
        if (writable) {
            index.header = blocks.protect(address, BTreeV2Header.SIZE, () -> index,
                    BTreeV2ChunkIndex::encodeHeader);
        }
        return index;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return parameters;
    }

    @Override
    public long address() {
        return headerAddress;
    }

    /** The depth of the root node: 0 while it is a leaf. */
    public int depth() {
        return depth;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        if (root.totalRecords == 0) {
            return ChunkRecord.UNWRITTEN;
        }
        long[] path = new long[depth + 1];
        Child at = root;
        for (int d = depth; ; d--) {
            path[depth - d] = at.address;
            for (int above = 0; above < depth - d; above++) {
                if (path[above] == at.address) {
                    throw new CorruptFileException(blocks.file().path(), at.address,
                            BTreeV2InternalNode.IDENTITY.structure(), "child node address",
                            "a node below its parent", at.address + ", a node above it (a cycle)");
                }
            }
            BlockEntry<Node> entry = protect(at, d);
            try {
                Node node = entry.value();
                int i = search(node.records(), scaled);
                if (i >= 0) {
                    return node.records().get(i).chunk();
                }
                if (d == 0) {
                    return ChunkRecord.UNWRITTEN;
                }
                at = node.children().get(-i - 1);
            } finally {
                blocks.unprotect(entry);
            }
        }
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        BTreeV2ChunkRecord entry = new BTreeV2ChunkRecord(scaled.clone(), record);
        if (replace(entry)) {
            return;
        }
        if (root.totalRecords == 0) {
            root.address = blocks.file().allocate(nodeSize());
            blocks.unprotect(blocks.create(root.address, nodeSize(),
                    new Node(0, new ArrayList<>(), List.of()), this::encodeNode));
        }
        BlockEntry<Node> protectedRoot = protect(root, depth);
        BlockEntry<Node> rootEntry = protectedRoot;
        try {
            Inserted inserted = insert(root, protectedRoot, entry);
            rootEntry = inserted.node();
            Split split = inserted.split();
            if (split != null) {
                Child left = new Child(root.address, rootEntry.value().records().size(),
                        subtreeTotal(rootEntry.value()));
                depth++;
                long address = blocks.file().allocate(nodeSize());
                BlockEntry<Node> newRoot = blocks.create(address, nodeSize(),
                        new Node(depth, new ArrayList<>(List.of(split.middle())),
                                new ArrayList<>(List.of(left, split.right()))), this::encodeNode);
                blocks.moveChild(headerAddress, newRoot, left.address);
                blocks.dependsOn(newRoot, split.entry());
                blocks.unprotect(split.entry());
                unprotectBoth(protectedRoot, rootEntry);
                protectedRoot = newRoot;
                rootEntry = newRoot;
                root.address = address;
            }
            root.records = rootEntry.value().records().size();
            root.totalRecords = subtreeTotal(rootEntry.value());
            blocks.changed(header);
            blocks.dependsOn(header, rootEntry);
        } finally {
            unprotectBoth(protectedRoot, rootEntry);
        }
    }

    /** Ends the protection of a node and, when it moved, of its new entry too. */
    private void unprotectBoth(BlockEntry<Node> protectedEntry, BlockEntry<Node> now)
            throws IOException {
        blocks.unprotect(protectedEntry);
        if (now != protectedEntry) {
            blocks.unprotect(now);
        }
    }

    /**
     * Replaces the record with {@code entry}'s key, if there is one; the nodes on its path
     * move first if readers may reach them ({@link #movedForReaders}).
     */
    private boolean replace(BTreeV2ChunkRecord entry) throws IOException {
        if (root.totalRecords == 0) {
            return false;
        }
        List<BlockEntry<Node>> held = new ArrayList<>(2 * depth + 2);
        try {
            Child at = root;
            List<BlockEntry<Node>> path = new ArrayList<>(depth + 1);
            List<Child> pointers = new ArrayList<>(depth + 1);
            for (int d = depth; ; d--) {
                BlockEntry<Node> node = protect(at, d);
                held.add(node);
                path.add(node);
                pointers.add(at);
                int i = search(node.value().records(), entry.scaled());
                if (i >= 0) {
                    changePath(path, pointers, held).value().records().set(i, entry);
                    blocks.dependsOnChunk(path.get(path.size() - 1), entry.chunk());
                    return true;
                }
                if (d == 0) {
                    return false;
                }
                at = node.value().children().get(-i - 1);
            }
        } finally {
            for (int p = held.size() - 1; p >= 0; p--) {
                blocks.unprotect(held.get(p));
            }
        }
    }

    /**
     * Readies the nodes of {@code path} (root first, each reached through the pointer at the
     * same place of {@code pointers}) for a change of the last one: each moved where readers
     * may reach it (entries added to {@code held}, the parent or header marked changed), the
     * last marked changed, the header depending on the root and each node on the next; returns
     * the last.
     */
    private BlockEntry<Node> changePath(List<BlockEntry<Node>> path, List<Child> pointers,
                                        List<BlockEntry<Node>> held) throws IOException {
        for (int p = 0; p < path.size(); p++) {
            BlockEntry<Node> node = path.get(p);
            Child pointer = pointers.get(p);
            if (p > 0) { // the pointer in the parent as it is now (moved or not)
                List<Child> siblings = path.get(p - 1).value().children();
                for (Child sibling : siblings) {
                    if (sibling.address == node.address()) {
                        pointer = sibling;
                    }
                }
            }
            BlockEntry<Node> now = movedForReaders(pointer, node);
            if (now != node) { // its parent (or the header) now points elsewhere
                held.add(now);
                path.set(p, now);
                blocks.changed(p > 0 ? path.get(p - 1) : header);
            }
            if (p > 0) {
                blocks.dependsOn(path.get(p - 1), now);
            }
        }
        BlockEntry<Node> last = path.get(path.size() - 1);
        blocks.changed(last);
        blocks.dependsOn(header, path.get(0));
        return last;
    }

    /**
     * Inserts a new key below the protected node {@code at}, which {@code pointer} points at;
     * every node on the way moves first if readers may reach it ({@link #movedForReaders}).
     */
    private Inserted insert(Child pointer, BlockEntry<Node> at, BTreeV2ChunkRecord entry)
            throws IOException {
        at = movedForReaders(pointer, at);
        Node node = at.value();
        int i = -search(node.records(), entry.scaled()) - 1;
        if (node.depth() == 0) {
            node.records().add(i, entry);
            blocks.dependsOnChunk(at, entry.chunk());
        } else {
            Child child = node.children().get(i);
            BlockEntry<Node> childEntry = protect(child, node.depth() - 1);
            BlockEntry<Node> childNow = childEntry;
            try {
                Inserted below = insert(child, childEntry, entry);
                childNow = below.node();
                Split split = below.split();
                if (split != null) {
                    node.records().add(i, split.middle());
                    node.children().add(i + 1, split.right());
                    blocks.dependsOn(at, split.entry());
                    blocks.unprotect(split.entry());
                }
                child.records = childNow.value().records().size();
                child.totalRecords = subtreeTotal(childNow.value());
                blocks.dependsOn(at, childNow);
            } finally {
                unprotectBoth(childEntry, childNow);
            }
        }
        blocks.changed(at);
        return new Inserted(at, node.records().size() > geometry.capacity(node.depth())
                ? split(at) : null);
    }

    /**
     * The node {@code at} about to change, moved to new space (a new protected entry, {@code
     * pointer} updated; {@code at} stays protected for its holder) when SWMR readers may reach
     * it from a flushed state; otherwise {@code at} itself. A node's checksum sits after as many
     * records as its parent says it holds, so a reader holding the parent's old count that read
     * a node rewritten in place with a record more would fail its checksum on every retry, and
     * after a split would find other records under the same count. Never rewritten, the nodes
     * of a flushed state keep serving its readers; only the header, a fixed-size block a torn
     * read of which fails its checksum until re-read whole, is rewritten in place
     * (docs/hdf5.md, "SWMR writing"). A flush then writes the changed path to new space.
     */
    private BlockEntry<Node> movedForReaders(Child pointer, BlockEntry<Node> at)
            throws IOException {
        BlockFile file = blocks.file();
        if (!file.followedByReaders() || !file.reachableFromFlushedState(at.address())) {
            return at;
        }
        Node old = at.value();
        List<Child> children = new ArrayList<>();
        for (Child child : old.children()) {
            children.add(new Child(child.address, child.records, child.totalRecords));
        }
        long address = file.allocate(nodeSize());
        BlockEntry<Node> moved = blocks.create(address, nodeSize(),
                new Node(old.depth(), new ArrayList<>(old.records()), children),
                this::encodeNode);
        for (Child child : children) {
            blocks.moveChild(at.address(), moved, child.address);
        }
        // No dependencies on the chunks of the copied records: the node was flushed after them,
        // so their bytes are in the file and there is nothing to order; stating them again cost
        // a dependency per record at every flush and kept the copy from being evicted.
        pointer.address = address;
        return moved;
    }

    /** Moves the records (and children) right of the middle record into a new node. */
    private Split split(BlockEntry<Node> left) throws IOException {
        Node node = left.value();
        int middle = node.records().size() / 2;
        List<BTreeV2ChunkRecord> rightRecords =
                new ArrayList<>(node.records().subList(middle + 1, node.records().size()));
        BTreeV2ChunkRecord up = node.records().get(middle);
        node.records().subList(middle, node.records().size()).clear();
        List<Child> rightChildren = List.of();
        if (!node.children().isEmpty()) {
            rightChildren = new ArrayList<>(node.children().subList(middle + 1,
                    node.children().size()));
            node.children().subList(middle + 1, node.children().size()).clear();
        }
        Node right = new Node(node.depth(), rightRecords, rightChildren);
        long address = blocks.file().allocate(nodeSize());
        BlockEntry<Node> entry = blocks.create(address, nodeSize(), right,
                this::encodeNode);
        for (Child moved : rightChildren) {
            blocks.moveChild(left.address(), entry, moved.address);
        }
        for (BTreeV2ChunkRecord record : rightRecords) {
            blocks.dependsOnChunk(entry, record.chunk());
        }
        return new Split(up, new Child(address, rightRecords.size(), subtreeTotal(right)), entry);
    }

    private static long subtreeTotal(Node node) {
        long total = node.records().size();
        for (Child child : node.children()) {
            total += child.totalRecords;
        }
        return total;
    }

    /** Index of the record with key {@code scaled}, or {@code -(insertion point) - 1}. */
    private static int search(List<BTreeV2ChunkRecord> records, long[] scaled) {
        int low = 0;
        int high = records.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int order = BTreeV2ChunkRecord.compare(records.get(mid).scaled(), scaled);
            if (order < 0) {
                low = mid + 1;
            } else if (order > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -low - 1;
    }

    /** The node {@code at} points to, at depth {@code d}, protected; read and verified on a miss. */
    private BlockEntry<Node> protect(Child at, int d) throws IOException {
        BlockFile file = blocks.file();
        long address = at.address;
        int records = at.records;
        return blocks.protect(address, nodeSize(), () -> {
            if (d == 0) {
                BTreeV2LeafNode<BTreeV2ChunkRecord> leaf = BTreeV2LeafNode.read(file, address,
                        format, geometry, records);
                return new Node(0, new ArrayList<>(leaf.records()), List.of());
            }
            BTreeV2InternalNode<BTreeV2ChunkRecord> internal = BTreeV2InternalNode.read(file,
                    address, format, geometry, d, records);
            List<Child> children = new ArrayList<>();
            for (BTreeV2InternalNode.ChildPointer pointer : internal.children()) {
                children.add(new Child(pointer.address(), pointer.records(),
                        pointer.totalRecords()));
            }
            return new Node(d, new ArrayList<>(internal.records()), children);
        }, this::encodeNode);
    }

    /**
     * Visits every record in key order, reading and verifying every node the cache does not
     * hold (see {@link BTreeV2Walk}: one pointer per node, chunk coordinates strictly
     * ascending, subtree totals); the nodes in the cache are the tree as written so far.
     */
    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (root.totalRecords == 0) {
            return;
        }
        BTreeV2Walk.visit(blocks.file().path(), new BTreeV2Walk.Nodes<BTreeV2ChunkRecord, Child>() {
            @Override
            public long address(Child pointer) {
                return pointer.address;
            }

            @Override
            public long totalRecords(Child pointer) {
                return pointer.totalRecords;
            }

            @Override
            public BTreeV2Walk.Node<BTreeV2ChunkRecord, Child> node(Child pointer, int d)
                    throws IOException {
                BlockEntry<Node> entry = protect(pointer, d);
                try {
                    return new BTreeV2Walk.Node<>(List.copyOf(entry.value().records()),
                            List.copyOf(entry.value().children()));
                } finally {
                    blocks.unprotect(entry);
                }
            }
        }, root, depth, (a, b) -> BTreeV2ChunkRecord.compare(a.scaled(), b.scaled()), true,
                record -> {
                    if (record.chunk().isWritten()) {
                        visitor.visit(record.scaled().clone(), record.chunk());
                    }
                });
    }
}
