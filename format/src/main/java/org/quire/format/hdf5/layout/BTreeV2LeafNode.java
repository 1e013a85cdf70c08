package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Version 2 B-tree leaf node, specification section III.A.2 ("Version 2 B-tree Leaf Node"),
 * holding the records of any tree type.
 *
 * <pre>
 * +--------+---------+------+-----------------------------+----------+-------------------+
 * | "BTLF" | version | type | records (count from parent) | checksum | zeros to the node |
 * |        |   (0)   |      |                             |          | size              |
 * +--------+---------+------+-----------------------------+----------+-------------------+
 * </pre>
 *
 * The record count is not in the node: the parent's pointer (or the header, for the root)
 * holds it. Each node takes the tree's node size in the file; the checksum covers only the
 * bytes before it.
 */
public record BTreeV2LeafNode<R>(List<R> records) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("version 2 B-tree leaf node", "BTLF", 0);

    /** The whole node, padded with zeros to the node size. */
    public byte[] encode(BTreeV2RecordFormat<R> format, BTreeV2Geometry geometry) {
        LittleEndianWriter out = new LittleEndianWriter((int) geometry.nodeSize());
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version()).putByte(format.type());
        for (R record : records) {
            format.encode(record, out);
        }
        out.putChecksumFrom(0);
        return out.putZeros((int) geometry.nodeSize() - out.position()).toByteArray();
    }

    /**
     * Reads and verifies the leaf at {@code address} holding {@code recordCount} records, which
     * the caller has checked against the leaf capacity.
     */
    public static <R> BTreeV2LeafNode<R> read(BlockFile file, long address,
                                       BTreeV2RecordFormat<R> format, BTreeV2Geometry geometry,
                                       int recordCount) throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), file.readVerified(
                address, geometry.usedSize(0, recordCount), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        checkType(in, format);
        List<R> records = new ArrayList<>(recordCount);
        for (int i = 0; i < recordCount; i++) {
            records.add(format.decode(in));
        }
        return new BTreeV2LeafNode<>(records);
    }

    /** Checks the tree type byte every node repeats from the header. */
    static void checkType(LittleEndianReader in, BTreeV2RecordFormat<?> format)
            throws IOException {
        long at = in.absolutePosition();
        int type = in.getUnsignedByte("type");
        if (type != format.type()) {
            throw in.corrupt(at, "type", "the header's " + format.type(), Integer.toString(type));
        }
    }
}
