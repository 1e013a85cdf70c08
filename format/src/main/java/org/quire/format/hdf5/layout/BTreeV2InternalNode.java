package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Version 2 B-tree internal node, specification section III.A.2 ("Version 2 B-tree Internal
 * Node"), holding records of any tree type and one more child pointer than records: the records of child
 * {@code i} all come before record {@code i}, and those of child {@code i + 1} after it.
 *
 * <pre>
 * +--------+---------+------+-----------------------------+
 * | "BTIN" | version | type | records (count from parent) |
 * |        |   (0)   |      |                             |
 * +--------+---------+------+-----------------------------+
 * | child pointers (records + 1):                                                      |
 * |   child address (O) | records in child (see below) | [records in child's subtree]  |
 * +----------+-------------------+
 * | checksum | zeros to node size |
 * +----------+-------------------+
 * </pre>
 *
 * Field widths come from {@link BTreeV2Geometry}; the subtree total is absent when the
 * children are leaves (this node's depth is 1).
 */
public record BTreeV2InternalNode<R>(List<R> records, List<ChildPointer> children) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("version 2 B-tree internal node", "BTIN", 0);

    /** Where a child node is, how many records it holds and how many its whole subtree does. */
    public record ChildPointer(long address, int records, long totalRecords) {
    }

    /** The whole node at {@code depth}, padded with zeros to the node size. */
    public byte[] encode(BTreeV2RecordFormat<R> format, BTreeV2Geometry geometry, int depth) {
        LittleEndianWriter out = new LittleEndianWriter((int) geometry.nodeSize());
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version()).putByte(format.type());
        for (R record : records) {
            format.encode(record, out);
        }
        int totalSize = geometry.subtreeCountSize(depth - 1);
        for (ChildPointer child : children) {
            out.putAddress(child.address()).putUnsigned(child.records(), geometry.recordCountSize());
            if (totalSize > 0) {
                out.putUnsigned(child.totalRecords(), totalSize);
            }
        }
        out.putChecksumFrom(0);
        return out.putZeros((int) geometry.nodeSize() - out.position()).toByteArray();
    }

    /**
     * Reads and verifies the node at {@code address} and {@code depth} (1..the geometry's
     * maximum) holding {@code recordCount} records, which the caller has checked against the
     * node capacity. Every child pointer's counts are checked against what a child can hold.
     */
    public static <R> BTreeV2InternalNode<R> read(BlockFile file, long address,
                                           BTreeV2RecordFormat<R> format,
                                           BTreeV2Geometry geometry, int depth, int recordCount)
            throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), file.readVerified(
                address, geometry.usedSize(depth, recordCount), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        BTreeV2LeafNode.checkType(in, format);
        List<R> records = new ArrayList<>(recordCount);
        for (int i = 0; i < recordCount; i++) {
            records.add(format.decode(in));
        }
        int totalSize = geometry.subtreeCountSize(depth - 1);
        List<ChildPointer> children = new ArrayList<>(recordCount + 1);
        for (int i = 0; i <= recordCount; i++) {
            long childAddress = in.getAddress("child node address");
            long countAt = in.absolutePosition();
            long childRecords = in.getUnsigned(geometry.recordCountSize(), "records in child");
            if (childRecords > geometry.capacity(depth - 1)) {
                throw in.corrupt(countAt, "records in child", "at most "
                        + geometry.capacity(depth - 1), Long.toUnsignedString(childRecords));
            }
            long total = childRecords;
            if (totalSize > 0) {
                long totalAt = in.absolutePosition();
                total = in.getUnsigned(totalSize, "records in child's subtree");
                if (Long.compareUnsigned(total, geometry.subtreeCapacity(depth - 1)) > 0
                        || total < childRecords) {
                    throw in.corrupt(totalAt, "records in child's subtree", childRecords + ".."
                            + geometry.subtreeCapacity(depth - 1), Long.toUnsignedString(total));
                }
            }
            children.add(new ChildPointer(childAddress, (int) childRecords, total));
        }
        return new BTreeV2InternalNode<>(records, children);
    }
}
