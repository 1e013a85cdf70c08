package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Version 2 B-tree header, specification section III.A.2 ("Version 2 B-tree Header"), of any
 * tree: a chunk index, a link or attribute name or creation-order index, a fractal heap's huge
 * objects.
 *
 * <pre>
 * +--------+---------+------+---------------+-----------------+-----------+
 * | "BTHD" | version | type | node size (4) | record size (2) | depth (2) |
 * |        |   (0)   |      |               |                 |           |
 * +--------+---------+------+---------------+-----------------+-----------+
 * | split percent | merge percent | root node address (O) | records in root node (2) |
 * +---------------+---------------+-----------------------+--------------------------+
 * | total records in the tree (L) | checksum |
 * +-------------------------------+----------+
 * </pre>
 *
 * The type and record size follow from the {@link BTreeV2RecordFormat}. The depth is the
 * root's: 0 when the root is a leaf. An empty tree has the undefined root address and no
 * records.
 *
 * @param <R> the record
 */
public record BTreeV2Header<R>(BTreeV2RecordFormat<R> format, long nodeSize, int depth,
                               int splitPercent, int mergePercent, long rootAddress,
                               int rootRecords, long totalRecords) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("version 2 B-tree header", "BTHD", 0);
    public static final int SIZE = IDENTITY.prefixLength() + 1 + 4 + 2 + 2 + 1 + 1
            + Addresses.SIZE_OF_OFFSETS + 2 + Addresses.SIZE_OF_LENGTHS
            + MetadataValidator.CHECKSUM_SIZE;

    /** The node capacities this header's node size and record size give. */
    public BTreeV2Geometry geometry() {
        return BTreeV2Geometry.of(nodeSize, format.size());
    }

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version()).putByte(format.type())
                .putInt((int) nodeSize).putShort(format.size()).putShort(depth)
                .putByte(splitPercent).putByte(mergePercent).putAddress(rootAddress)
                .putShort(rootRecords).putLength(totalRecords);
        return out.putChecksumFrom(0).toByteArray();
    }

    /**
     * Reads and verifies the header of the chunk index of a {@code rank}-dimensional dataset
     * whose unfiltered chunks take {@code unfilteredChunkSize} bytes: a chunk record type and
     * size for that rank, as {@link #read(BlockFile, long, BTreeV2RecordFormat.Resolver)}.
     */
    public static BTreeV2Header<BTreeV2ChunkRecord> read(BlockFile file, long address, int rank,
                                                         long unfilteredChunkSize)
            throws IOException {
        return read(file, address, (in, at, type, recordSize) -> BTreeV2ChunkRecord.Format.of(
                in, at, type, recordSize, rank, unfilteredChunkSize));
    }

    /**
     * Reads and verifies the header at {@code address}: a record type and size the
     * {@code resolver} accepts, node sizes that hold 2 or more records, a depth and root counts
     * such a tree can have.
     */
    public static <R> BTreeV2Header<R> read(BlockFile file, long address,
                                            BTreeV2RecordFormat.Resolver<R> resolver)
            throws IOException {
        LittleEndianReader in = file.readVerifiedFields(address, SIZE, IDENTITY);
        long typeAt = in.absolutePosition();
        int type = in.getUnsignedByte("type");
        long nodeSizeAt = in.absolutePosition();
        long nodeSize = in.getInt("node size") & 0xffffffffL;
        int recordSize = in.getUnsignedShort("record size");
        BTreeV2RecordFormat<R> format = resolver.resolve(in, typeAt, type, recordSize);
        BTreeV2Geometry geometry;
        try {
            geometry = BTreeV2Geometry.of(nodeSize, recordSize);
        } catch (IllegalArgumentException e) {
            throw in.corrupt(nodeSizeAt, "node size", "room for 2.."
                    + BTreeV2Geometry.MAX_NODE_RECORDS + " records per node", e.getMessage());
        }
        long depthAt = in.absolutePosition();
        int depth = in.getUnsignedShort("depth");
        if (depth > geometry.maxDepth()) {
            throw in.corrupt(depthAt, "depth", "0.." + geometry.maxDepth(),
                    Integer.toString(depth));
        }
        int split = in.getUnsignedByte("split percent");
        int merge = in.getUnsignedByte("merge percent");
        long root = in.getAddress("root node address");
        long countsAt = in.absolutePosition();
        int rootRecords = in.getUnsignedShort("records in root node");
        long total = in.getLength("total records");
        boolean empty = !Addresses.isDefined(root);
        if (rootRecords > geometry.capacity(depth)
                || Long.compareUnsigned(total, geometry.subtreeCapacity(depth)) > 0
                || total < rootRecords || empty && total != 0) {
            throw in.corrupt(countsAt, "records in root node and in the tree", "at most "
                    + geometry.capacity(depth) + " and " + geometry.subtreeCapacity(depth)
                    + ", 0 without a root", rootRecords + " and "
                    + Long.toUnsignedString(total));
        }
        return new BTreeV2Header<>(format, nodeSize, depth, split, merge, root, rootRecords,
                total);
    }
}
