package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
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
 * <p>Nodes are read when a lookup first passes them and kept in memory. A new record goes into
 * its leaf; a node that then holds more records than it can splits around its middle record,
 * which moves up into the parent (a new root when the root splits, so the tree grows at the
 * top). Every node takes the tree's node size in the file and keeps its address for life; a
 * rewritten chunk's record is replaced where it is. {@link #flush()} writes changed nodes
 * children first, then the header.
 */
public final class BTreeV2ChunkIndex implements ChunkIndex {

    private final BlockFile file;
    private final long headerAddress;
    private final ChunkIndexParameters.BTreeV2 parameters;
    private final BTreeV2ChunkRecord.Format format;
    private final BTreeV2Geometry geometry;
    /** The header's pointer to the root; its address is undefined while the tree is empty. */
    private final Child root;
    private int depth;
    private boolean headerDirty;

    /** A pointer to a node, with the node once read or created. */
    private static final class Child {
        long address;
        int records;
        long totalRecords;
        Node node;

        Child(long address, int records, long totalRecords) {
            this.address = address;
            this.records = records;
            this.totalRecords = totalRecords;
        }
    }

    /** A node in memory: its records in order and, unless a leaf, its children. */
    private static final class Node {
        final long address;
        final List<BTreeV2ChunkRecord> records;
        final List<Child> children;
        boolean dirty;

        Node(long address, List<BTreeV2ChunkRecord> records, List<Child> children) {
            this.address = address;
            this.records = records;
            this.children = children;
        }
    }

    /** The record that moved up out of a split node, and the new node right of it. */
    private record Split(BTreeV2ChunkRecord middle, Child right) {
    }

    private BTreeV2ChunkIndex(BlockFile file, long headerAddress,
                              ChunkIndexParameters.BTreeV2 parameters,
                              BTreeV2ChunkRecord.Format format, BTreeV2Geometry geometry,
                              Child root, int depth) {
        this.file = file;
        this.headerAddress = headerAddress;
        this.parameters = parameters;
        this.format = format;
        this.geometry = geometry;
        this.root = root;
        this.depth = depth;
    }

    /** Allocates a new, empty tree with libhdf5's default parameters. */
    static BTreeV2ChunkIndex create(BlockFile file, ChunkRecordFormat chunkFormat, int rank,
                                    long unfilteredChunkSize) {
        ChunkIndexParameters.BTreeV2 parameters = ChunkIndexParameters.BTreeV2.DEFAULT;
        BTreeV2ChunkRecord.Format format = new BTreeV2ChunkRecord.Format(chunkFormat, rank,
                unfilteredChunkSize);
        BTreeV2ChunkIndex index = new BTreeV2ChunkIndex(file,
                file.allocate(BTreeV2Header.SIZE), parameters, format,
                new BTreeV2Geometry(parameters.nodeSize(), format.size()),
                new Child(Addresses.UNDEFINED, 0, 0), 0);
        index.headerDirty = true;
        return index;
    }

    /**
     * Opens the tree at {@code address} of a {@code rank}-dimensional dataset; checks the
     * header against the layout message's {@code expected} parameters and the filters.
     */
    static BTreeV2ChunkIndex open(BlockFile file, long address,
                                  ChunkIndexParameters.BTreeV2 expected, int rank,
                                  long unfilteredChunkSize, boolean filtered) throws IOException {
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
        return new BTreeV2ChunkIndex(file, address, parameters, format,
                header.geometry(), new Child(header.rootAddress(),
                        header.rootRecords(), header.totalRecords()), header.depth());
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
                    throw new CorruptFileException(file.path(), at.address,
                            BTreeV2InternalNode.IDENTITY.structure(), "child node address",
                            "a node below its parent", at.address + ", a node above it (a cycle)");
                }
            }
            Node node = load(at, d);
            int i = search(node.records, scaled);
            if (i >= 0) {
                return node.records.get(i).chunk();
            }
            if (d == 0) {
                return ChunkRecord.UNWRITTEN;
            }
            at = node.children.get(-i - 1);
        }
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        BTreeV2ChunkRecord entry = new BTreeV2ChunkRecord(scaled.clone(), record);
        if (replace(entry)) {
            return;
        }
        if (root.totalRecords == 0) {
            root.address = file.allocate(geometry.nodeSize());
            root.node = new Node(root.address, new ArrayList<>(), List.of());
        }
        Split split = insert(root, depth, entry);
        if (split != null) {
            Child left = new Child(root.address, root.node.records.size(), 0);
            left.node = root.node;
            left.totalRecords = subtreeTotal(left.node);
            depth++;
            root.address = file.allocate(geometry.nodeSize());
            root.node = new Node(root.address, new ArrayList<>(List.of(split.middle())),
                    new ArrayList<>(List.of(left, split.right())));
            root.node.dirty = true;
        }
        root.records = root.node.records.size();
        root.totalRecords = subtreeTotal(root.node);
        headerDirty = true;
    }

    /** Replaces the record with {@code entry}'s key, if there is one. */
    private boolean replace(BTreeV2ChunkRecord entry) throws IOException {
        if (root.totalRecords == 0) {
            return false;
        }
        Child at = root;
        for (int d = depth; ; d--) {
            Node node = load(at, d);
            int i = search(node.records, entry.scaled());
            if (i >= 0) {
                node.records.set(i, entry);
                node.dirty = true;
                return true;
            }
            if (d == 0) {
                return false;
            }
            at = node.children.get(-i - 1);
        }
    }

    /** Inserts a new key below {@code at} (a node at {@code d}); the split, if it split. */
    private Split insert(Child at, int d, BTreeV2ChunkRecord entry) throws IOException {
        Node node = load(at, d);
        int i = -search(node.records, entry.scaled()) - 1;
        if (d == 0) {
            node.records.add(i, entry);
        } else {
            Child child = node.children.get(i);
            Split split = insert(child, d - 1, entry);
            if (split != null) {
                node.records.add(i, split.middle());
                node.children.add(i + 1, split.right());
            }
            child.records = child.node.records.size();
            child.totalRecords = subtreeTotal(child.node);
        }
        node.dirty = true;
        return node.records.size() > geometry.capacity(d) ? split(node) : null;
    }

    /** Moves the records (and children) right of the middle record into a new node. */
    private Split split(Node node) {
        int middle = node.records.size() / 2;
        List<BTreeV2ChunkRecord> rightRecords =
                new ArrayList<>(node.records.subList(middle + 1, node.records.size()));
        BTreeV2ChunkRecord up = node.records.get(middle);
        node.records.subList(middle, node.records.size()).clear();
        List<Child> rightChildren = List.of();
        if (!node.children.isEmpty()) {
            rightChildren = new ArrayList<>(node.children.subList(middle + 1,
                    node.children.size()));
            node.children.subList(middle + 1, node.children.size()).clear();
        }
        Node right = new Node(file.allocate(geometry.nodeSize()), rightRecords, rightChildren);
        right.dirty = true;
        Child pointer = new Child(right.address, rightRecords.size(), subtreeTotal(right));
        pointer.node = right;
        return new Split(up, pointer);
    }

    private static long subtreeTotal(Node node) {
        long total = node.records.size();
        for (Child child : node.children) {
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

    /** The node {@code at} points to, at depth {@code d}, read and verified the first time. */
    private Node load(Child at, int d) throws IOException {
        if (at.node != null) {
            return at.node;
        }
        if (d == 0) {
            BTreeV2LeafNode<BTreeV2ChunkRecord> leaf = BTreeV2LeafNode.read(file, at.address,
                    format, geometry, at.records);
            at.node = new Node(at.address, new ArrayList<>(leaf.records()), List.of());
        } else {
            BTreeV2InternalNode<BTreeV2ChunkRecord> internal = BTreeV2InternalNode.read(file,
                    at.address, format, geometry, d, at.records);
            List<Child> children = new ArrayList<>();
            for (BTreeV2InternalNode.ChildPointer pointer : internal.children()) {
                children.add(new Child(pointer.address(), pointer.records(),
                        pointer.totalRecords()));
            }
            at.node = new Node(at.address, new ArrayList<>(internal.records()), children);
        }
        return at.node;
    }

    /**
     * Visits every record in key order, reading and verifying every node not yet in memory (see
     * {@link BTreeV2Walk}: one pointer per node, chunk coordinates strictly ascending, subtree
     * totals); the nodes in memory are the tree as written so far.
     */
    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (root.totalRecords == 0) {
            return;
        }
        BTreeV2Walk.visit(file.path(), new BTreeV2Walk.Nodes<BTreeV2ChunkRecord, Child>() {
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
                Node node = load(pointer, d);
                return new BTreeV2Walk.Node<>(node.records, node.children);
            }
        }, root, depth, (a, b) -> BTreeV2ChunkRecord.compare(a.scaled(), b.scaled()), true,
                record -> {
                    if (record.chunk().isWritten()) {
                        visitor.visit(record.scaled().clone(), record.chunk());
                    }
                });
    }

    @Override
    public void flush() throws IOException {
        if (root.node != null) {
            flush(root.node, depth);
        }
        if (headerDirty) {
            file.write(headerAddress, new BTreeV2Header<>(format, geometry.nodeSize(), depth,
                    parameters.splitPercent(), parameters.mergePercent(), root.address,
                    root.records, root.totalRecords).encode());
            headerDirty = false;
        }
    }

    private void flush(Node node, int d) throws IOException {
        for (Child child : node.children) {
            if (child.node != null) {
                flush(child.node, d - 1);
            }
        }
        if (node.dirty) {
            List<BTreeV2InternalNode.ChildPointer> pointers = new ArrayList<>();
            for (Child child : node.children) {
                pointers.add(new BTreeV2InternalNode.ChildPointer(child.address, child.records,
                        child.totalRecords));
            }
            file.write(node.address, d == 0
                    ? new BTreeV2LeafNode<>(node.records).encode(format, geometry)
                    : new BTreeV2InternalNode<>(node.records, pointers).encode(format, geometry, d));
            node.dirty = false;
        }
    }
}
