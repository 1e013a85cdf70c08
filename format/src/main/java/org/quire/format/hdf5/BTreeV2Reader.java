package org.quire.format.hdf5;

import java.io.IOException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.BTreeV2Geometry;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2InternalNode;
import org.quire.format.hdf5.layout.BTreeV2LeafNode;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BlockFile;

/**
 * A version-2 B-tree of any record type, read-only: visit every record in order, or find one
 * by a key. Nodes are read and verified as they are reached, never kept. A lookup descends one
 * level per node, so a damaged child pointer can never make it loop; a full visit also refuses
 * a node reached twice.
 *
 * @param <R> the record
 */
final class BTreeV2Reader<R> {

    private final BlockFile file;
    private final long address;
    private final BTreeV2Header<R> header;
    private final BTreeV2Geometry geometry;

    /** Where a record sits relative to a key: {@code < 0} before it, 0 the key's record. */
    @FunctionalInterface
    interface KeyOrder<R> {
        int compare(R record) throws IOException;
    }

    @FunctionalInterface
    interface RecordVisitor<R> {
        void visit(R record) throws IOException;
    }

    private BTreeV2Reader(BlockFile file, long address, BTreeV2Header<R> header) {
        this.file = file;
        this.address = address;
        this.header = header;
        this.geometry = header.geometry();
    }

    /** Reads the header at {@code address} of a tree whose records {@code resolver} accepts. */
    static <R> BTreeV2Reader<R> open(BlockFile file, long address,
                                     BTreeV2RecordFormat.Resolver<R> resolver) throws IOException {
        return new BTreeV2Reader<>(file, address, BTreeV2Header.read(file, address, resolver));
    }

    long address() {
        return address;
    }

    /** Records in the tree, as its header says. */
    long size() {
        return header.totalRecords();
    }

    /** The record {@code key} finds, or null. */
    R find(KeyOrder<R> key) throws IOException {
        if (header.totalRecords() == 0) {
            return null;
        }
        long at = header.rootAddress();
        int count = header.rootRecords();
        for (int depth = header.depth(); ; depth--) {
            Node<R> node = read(at, depth, count);
            int low = 0;
            int high = node.records.size() - 1;
            while (low <= high) {
                int mid = (low + high) >>> 1;
                int order = key.compare(node.records.get(mid));
                if (order < 0) {
                    low = mid + 1;
                } else if (order > 0) {
                    high = mid - 1;
                } else {
                    return node.records.get(mid);
                }
            }
            if (depth == 0) {
                return null;
            }
            BTreeV2InternalNode.ChildPointer child = node.children.get(low);
            at = child.address();
            count = child.records();
        }
    }

    /**
     * Visits every record in order, reading and verifying every node: each node is reached by
     * exactly one pointer, no record comes before the one visited before it by {@code order},
     * and every pointer's subtree total matches the records below it.
     */
    void forEach(Comparator<R> order, RecordVisitor<R> visitor) throws IOException {
        if (header.totalRecords() == 0) {
            return;
        }
        Object[] previous = {null};
        long total = visit(header.rootAddress(), header.depth(), header.rootRecords(), order,
                visitor, new HashSet<>(), previous);
        if (total != header.totalRecords()) {
            throw new CorruptFileException(file.path(), address,
                    BTreeV2Header.IDENTITY.structure(), "total records in the tree",
                    Long.toString(header.totalRecords()), total + " below the root");
        }
    }

    @SuppressWarnings("unchecked")
    private long visit(long at, int depth, int count, Comparator<R> order,
                       RecordVisitor<R> visitor, Set<Long> seen, Object[] previous)
            throws IOException {
        String structure = structure(depth);
        if (!seen.add(at)) {
            throw new CorruptFileException(file.path(), at, structure, "child node address",
                    "an address no other pointer uses",
                    at + ", reached a second time (a cycle or shared node)");
        }
        Node<R> node = read(at, depth, count);
        long total = node.records.size();
        for (int i = 0; i <= node.records.size(); i++) {
            if (depth > 0) {
                BTreeV2InternalNode.ChildPointer child = node.children.get(i);
                long below = visit(child.address(), depth - 1, child.records(), order, visitor,
                        seen, previous);
                if (below != child.totalRecords()) {
                    throw new CorruptFileException(file.path(), child.address(),
                            structure(depth - 1), "records in subtree",
                            child.totalRecords() + " (parent's count)", Long.toString(below));
                }
                total += below;
            }
            if (i == node.records.size()) {
                break;
            }
            R record = node.records.get(i);
            if (previous[0] != null && order.compare((R) previous[0], record) > 0) {
                throw new CorruptFileException(file.path(), at, structure, "record order",
                        "records after " + previous[0], record.toString());
            }
            previous[0] = record;
            visitor.visit(record);
        }
        return total;
    }

    private static String structure(int depth) {
        return (depth == 0 ? BTreeV2LeafNode.IDENTITY : BTreeV2InternalNode.IDENTITY).structure();
    }

    private record Node<R>(List<R> records, List<BTreeV2InternalNode.ChildPointer> children) {
    }

    private Node<R> read(long at, int depth, int count) throws IOException {
        if (depth == 0) {
            return new Node<>(BTreeV2LeafNode.read(file, at, header.format(), geometry, count)
                    .records(), List.of());
        }
        BTreeV2InternalNode<R> node = BTreeV2InternalNode.read(file, at, header.format(),
                geometry, depth, count);
        return new Node<>(node.records(), node.children());
    }
}
