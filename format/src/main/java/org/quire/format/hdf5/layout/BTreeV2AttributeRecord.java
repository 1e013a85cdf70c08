package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Record of an object's dense attribute index, specification section III.A.2: "Type 8 Record
 * Layout - Attribute Name for Indexed Attributes" (ordered by the Jenkins lookup3 hash of the
 * attribute name, then by name) and "Type 9 Record Layout - Creation Order for Indexed
 * Attributes" (ordered by creation order). Both point at the attribute message in the object's
 * fractal heap.
 *
 * <pre>
 * type 8:  +-------------+-------------------+--------------------+---------------+
 *          | heap ID (8) | message flags (1) | creation order (4) | name hash (4) |
 *          +-------------+-------------------+--------------------+---------------+
 * type 9:  +-------------+-------------------+--------------------+
 *          | heap ID (8) | message flags (1) | creation order (4) |
 *          +-------------+-------------------+--------------------+
 * </pre>
 *
 * @param messageFlags the attribute message's header message flags (b1: shared)
 * @param nameHash     the name hash, as an unsigned 32-bit value (0 in type 9 records)
 */
public record BTreeV2AttributeRecord(byte[] heapId, int messageFlags, long creationOrder,
                                     long nameHash) {

    /** Length of the heap IDs of an object's attribute heap (libhdf5's H5O_FHEAP_ID_LEN). */
    public static final int HEAP_ID_LENGTH = 8;

    public static final BTreeV2RecordFormat<BTreeV2AttributeRecord> NAME = new Format(8, true);
    public static final BTreeV2RecordFormat<BTreeV2AttributeRecord> CREATION_ORDER =
            new Format(9, false);

    private record Format(int type, boolean hashed)
            implements BTreeV2RecordFormat<BTreeV2AttributeRecord> {

        @Override
        public int size() {
            return HEAP_ID_LENGTH + 1 + 4 + (hashed ? 4 : 0);
        }

        @Override
        public void encode(BTreeV2AttributeRecord record, LittleEndianWriter out) {
            out.putBytes(record.heapId()).putByte(record.messageFlags())
                    .putInt((int) record.creationOrder());
            if (hashed) {
                out.putInt((int) record.nameHash());
            }
        }

        @Override
        public BTreeV2AttributeRecord decode(LittleEndianReader in) throws CorruptFileException {
            byte[] id = in.getBytes(HEAP_ID_LENGTH, "heap ID");
            int flags = in.getUnsignedByte("message flags");
            long order = in.getInt("creation order") & 0xffffffffL;
            long hash = hashed ? in.getInt("name hash") & 0xffffffffL : 0;
            return new BTreeV2AttributeRecord(id, flags, order, hash);
        }
    }
}
