package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Record of a group's dense link index, specification section III.A.2: "Type 5 Record Layout -
 * Link Name for Indexed Group" (ordered by the Jenkins lookup3 hash of the link name, then by
 * name) and "Type 6 Record Layout - Creation Order for Indexed Group" (ordered by creation
 * order). Both point at the link message in the group's fractal heap.
 *
 * <pre>
 * type 5:  +---------------+-------------+
 *          | name hash (4) | heap ID (7) |
 *          +---------------+-------------+
 * type 6:  +--------------------+-------------+
 *          | creation order (8) | heap ID (7) |
 *          +--------------------+-------------+
 * </pre>
 *
 * @param key the name hash (type 5, as an unsigned 32-bit value) or creation order (type 6)
 */
public record BTreeV2LinkRecord(long key, byte[] heapId) {

    /** Length of the heap IDs of a group's link heap (libhdf5's H5G_DENSE_FHEAP_ID_LEN). */
    public static final int HEAP_ID_LENGTH = 7;

    public static final BTreeV2RecordFormat<BTreeV2LinkRecord> NAME = new Format(5, 4);
    public static final BTreeV2RecordFormat<BTreeV2LinkRecord> CREATION_ORDER = new Format(6, 8);

    private record Format(int type, int keySize) implements BTreeV2RecordFormat<BTreeV2LinkRecord> {

        @Override
        public int size() {
            return keySize + HEAP_ID_LENGTH;
        }

        @Override
        public void encode(BTreeV2LinkRecord record, LittleEndianWriter out) {
            out.putUnsigned(record.key(), keySize).putBytes(record.heapId());
        }

        @Override
        public BTreeV2LinkRecord decode(LittleEndianReader in) throws CorruptFileException {
            return new BTreeV2LinkRecord(in.getUnsigned(keySize, "key"),
                    in.getBytes(HEAP_ID_LENGTH, "heap ID"));
        }
    }
}
