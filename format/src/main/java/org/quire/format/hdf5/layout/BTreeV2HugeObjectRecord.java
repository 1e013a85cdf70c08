package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Record of a fractal heap's huge-object B-tree, specification section III.A.2, "Type 1 Record
 * Layout - Indirectly Accessed, Non-filtered, 'Huge' Fractal Heap Objects": where the object
 * whose heap ID holds {@code key} is. Records are ordered by key.
 *
 * <pre>
 * +-------------+------------+----------+
 * | address (O) | length (L) | key (L)  |
 * +-------------+------------+----------+
 * </pre>
 */
public record BTreeV2HugeObjectRecord(long address, long length, long key) {

    public static final int TYPE = 1;

    public static final BTreeV2RecordFormat<BTreeV2HugeObjectRecord> FORMAT =
            new BTreeV2RecordFormat<>() {
                @Override
                public int type() {
                    return TYPE;
                }

                @Override
                public int size() {
                    return Addresses.SIZE_OF_OFFSETS + 2 * Addresses.SIZE_OF_LENGTHS;
                }

                @Override
                public void encode(BTreeV2HugeObjectRecord record, LittleEndianWriter out) {
                    out.putAddress(record.address()).putLength(record.length())
                            .putLength(record.key());
                }

                @Override
                public BTreeV2HugeObjectRecord decode(LittleEndianReader in)
                        throws CorruptFileException {
                    return new BTreeV2HugeObjectRecord(in.getAddress("huge object address"),
                            in.getLength("huge object length"), in.getLength("huge object ID"));
                }
            };
}
