package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.quire.format.CorruptFileException;

/**
 * A full, checked visit of a version-2 B-tree's records in key order, over nodes however they
 * are held: read from the file ({@link BTreeV2Reader}) or in memory while the version-2
 * B-tree chunk index is written. Each node must be reached by exactly one pointer (so a cycle
 * ends), no record may come before the one visited before it (nor equal it, where keys
 * are unique), and every pointer's subtree total must match the records below it.
 *
 * @param <R> the record
 * @param <P> a pointer to a node: its address and subtree total, and a way to its node
 */
public final class BTreeV2Walk<R, P> {

    /** How the walk reaches nodes. */
    public interface Nodes<R, P> {
        long address(P pointer);

        /** Records in the subtree {@code pointer} leads to, as the pointer says. */
        long totalRecords(P pointer);

        /** The node {@code pointer} leads to, at {@code depth} (0: a leaf), read if need be. */
        Node<R, P> node(P pointer, int depth) throws IOException;
    }

    /** A node's records in order and, above the leaves, its children (one more). */
    public record Node<R, P>(List<R> records, List<P> children) {
    }

    @FunctionalInterface
    public interface RecordVisitor<R> {
        void visit(R record) throws IOException;
    }

    private final Path file;
    private final Nodes<R, P> nodes;
    private final Comparator<R> order;
    private final boolean uniqueKeys;
    private final RecordVisitor<R> visitor;
    private final Set<Long> seen = new HashSet<>();
    private R previous;

    private BTreeV2Walk(Path file, Nodes<R, P> nodes, Comparator<R> order, boolean uniqueKeys,
                        RecordVisitor<R> visitor) {
        this.file = file;
        this.nodes = nodes;
        this.order = order;
        this.uniqueKeys = uniqueKeys;
        this.visitor = visitor;
    }

    /**
     * Visits every record below {@code root}, a node at {@code depth}, in order.
     *
     * @param uniqueKeys no two records may be equal by {@code order} (false for name hashes,
     *                   which collide)
     */
    public static <R, P> void visit(Path file, Nodes<R, P> nodes, P root, int depth,
                             Comparator<R> order, boolean uniqueKeys, RecordVisitor<R> visitor)
            throws IOException {
        new BTreeV2Walk<>(file, nodes, order, uniqueKeys, visitor).visit(root, depth);
    }

    private long visit(P pointer, int depth) throws IOException {
        long at = nodes.address(pointer);
        String structure = structure(depth);
        if (!seen.add(at)) {
            throw new CorruptFileException(file, at, structure, "child node address",
                    "an address no other pointer uses",
                    at + ", reached a second time (a cycle or shared node)");
        }
        Node<R, P> node = nodes.node(pointer, depth);
        long total = node.records().size();
        for (int i = 0; i <= node.records().size(); i++) {
            if (depth > 0) {
                total += visit(node.children().get(i), depth - 1);
            }
            if (i == node.records().size()) {
                break;
            }
            R record = node.records().get(i);
            if (previous != null) {
                int comparison = order.compare(previous, record);
                if (comparison > 0 || uniqueKeys && comparison == 0) {
                    throw new CorruptFileException(file, at, structure, "record order",
                            "records after " + previous, record.toString());
                }
            }
            previous = record;
            visitor.visit(record);
        }
        if (total != nodes.totalRecords(pointer)) {
            throw new CorruptFileException(file, at, structure, "records in subtree",
                    nodes.totalRecords(pointer) + " (its pointer's count)", Long.toString(total));
        }
        return total;
    }

    public static String structure(int depth) {
        return (depth == 0 ? BTreeV2LeafNode.IDENTITY : BTreeV2InternalNode.IDENTITY).structure();
    }
}
