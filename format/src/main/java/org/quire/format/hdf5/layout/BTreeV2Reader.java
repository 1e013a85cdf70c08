package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;

import org.quire.format.hdf5.layout.BTreeV2InternalNode.ChildPointer;
import org.quire.format.hdf5.layout.BTreeV2Walk.Node;

/**
 * A version-2 B-tree of any record type, read-only: visit every record in order, or find one
 * by a key. Nodes are read and verified as they are reached, never kept. A lookup descends one
 * level per node, so a damaged child pointer can never make it loop; a full visit
 * ({@link BTreeV2Walk}) also refuses a node reached twice.
 *
 * @param <R> the record
 */
public final class BTreeV2Reader<R> {

    private final BlockFile file;
    private final long address;
    private final BTreeV2Header<R> header;
    private final BTreeV2Geometry geometry;

    /** Where a record sits relative to a key: {@code < 0} before it, 0 the key's record. */
    @FunctionalInterface
    public interface KeyOrder<R> {
        int compare(R record) throws IOException;
    }

    private BTreeV2Reader(BlockFile file, long address, BTreeV2Header<R> header) {
        this.file = file;
        this.address = address;
        this.header = header;
        this.geometry = header.geometry();
    }

    /** Reads the header at {@code address} of a tree whose records {@code resolver} accepts. */
    public static <R> BTreeV2Reader<R> open(BlockFile file, long address,
                                     BTreeV2RecordFormat.Resolver<R> resolver) throws IOException {
        return new BTreeV2Reader<>(file, address, BTreeV2Header.read(file, address, resolver));
    }

    public long address() {
        return address;
    }

    /** Records in the tree, as its header says. */
    public long size() {
        return header.totalRecords();
    }

    /** The record {@code key} finds, or null. */
    public R find(KeyOrder<R> key) throws IOException {
        if (header.totalRecords() == 0) {
            return null;
        }
        long at = header.rootAddress();
        int count = header.rootRecords();
        for (int depth = header.depth(); ; depth--) {
            Node<R, ChildPointer> node = read(at, depth, count);
            int low = 0;
            int high = node.records().size() - 1;
            while (low <= high) {
                int mid = (low + high) >>> 1;
                int order = key.compare(node.records().get(mid));
                if (order < 0) {
                    low = mid + 1;
                } else if (order > 0) {
                    high = mid - 1;
                } else {
                    return node.records().get(mid);
                }
            }
            if (depth == 0) {
                return null;
            }
            ChildPointer child = node.children().get(low);
            at = child.address();
            count = child.records();
        }
    }

    /**
     * Visits every record in order, reading and verifying every node (see {@link BTreeV2Walk}:
     * one pointer per node, records in {@code order}, subtree totals).
     *
     * @param uniqueKeys no two records may be equal by {@code order}
     */
    public void forEach(Comparator<R> order, boolean uniqueKeys, BTreeV2Walk.RecordVisitor<R> visitor)
            throws IOException {
        if (header.totalRecords() == 0) {
            return;
        }
        BTreeV2Walk.visit(file.path(), new BTreeV2Walk.Nodes<R, ChildPointer>() {
            @Override
            public long address(ChildPointer pointer) {
                return pointer.address();
            }

            @Override
            public long totalRecords(ChildPointer pointer) {
                return pointer.totalRecords();
            }

            @Override
            public Node<R, ChildPointer> node(ChildPointer pointer, int depth) throws IOException {
                return read(pointer.address(), depth, pointer.records());
            }
        }, new ChildPointer(header.rootAddress(), header.rootRecords(), header.totalRecords()),
                header.depth(), order, uniqueKeys, visitor);
    }

    private Node<R, ChildPointer> read(long at, int depth, int count) throws IOException {
        if (depth == 0) {
            return new Node<>(BTreeV2LeafNode.read(file, at, header.format(), geometry, count)
                    .records(), List.of());
        }
        BTreeV2InternalNode<R> node = BTreeV2InternalNode.read(file, at, header.format(),
                geometry, depth, count);
        return new Node<>(node.records(), node.children());
    }
}
