package org.quire.format.hdf5.layout;

import java.util.Arrays;

import org.quire.format.CorruptFileException;

/**
 * One record of a version-2 B-tree chunk index: where the chunk at scaled coordinates
 * {@code scaled} (element offset / chunk size, per dimension) is stored. Specification section
 * III.A.2, "Type 10 Record Layout - Non-filtered Dataset Chunks" and "Type 11 Record Layout -
 * Filtered Dataset Chunks".
 *
 * <pre>
 * type 10:  +-------------+---------------------------------------+
 *           | address (O) | scaled offset of dimension 0..rank-1  |
 *           |             | (8 bytes each)                        |
 *           +-------------+---------------------------------------+
 * type 11:  +-------------+-------------------+-----------------+---------------------------+
 *           | address (O) | chunk size (1..8) | filter mask (4) | scaled offsets (8 each)   |
 *           +-------------+-------------------+-----------------+---------------------------+
 * </pre>
 *
 * The address, size and mask are encoded as {@link ChunkRecordFormat} encodes array elements.
 * Records are ordered by their scaled offsets compared as unsigned numbers, dimension 0 first
 * (libhdf5's H5D__bt2_compare).
 */
public record BTreeV2ChunkRecord(long[] scaled, ChunkRecord chunk) {

    public static final int TYPE_UNFILTERED = 10;
    public static final int TYPE_FILTERED = 11;

    /** Bytes of one scaled offset. */
    private static final int OFFSET_SIZE = 8;

    /** The ordering of records: {@code < 0} when {@code a} comes before {@code b}. */
    public static int compare(long[] a, long[] b) {
        for (int d = 0; d < a.length; d++) {
            int order = Long.compareUnsigned(a[d], b[d]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return Arrays.toString(scaled) + " -> " + chunk;
    }

    /**
     * The records of one tree: their chunk fields, the dataset's rank and the stored size of an
     * unfiltered chunk (which records of type 10 do not hold).
     */
    public record Format(ChunkRecordFormat chunk, int rank, long unfilteredChunkSize)
            implements BTreeV2RecordFormat<BTreeV2ChunkRecord> {

        @Override
        public int type() {
            return chunk.filtered() ? TYPE_FILTERED : TYPE_UNFILTERED;
        }

        @Override
        public int size() {
            return chunk.entrySize() + rank * OFFSET_SIZE;
        }

        /**
         * The format a header's tree type and record size describe for a dataset of
         * {@code rank} dimensions; {@code at} is the offset of the type field.
         */
        public static Format of(LittleEndianReader in, long at, int type, int recordSize,
                                int rank, long unfilteredChunkSize) throws CorruptFileException {
            int chunkFields = recordSize - rank * OFFSET_SIZE;
            int clientId = type == TYPE_FILTERED ? ChunkRecordFormat.CLIENT_FILTERED
                    : type == TYPE_UNFILTERED ? ChunkRecordFormat.CLIENT_UNFILTERED : -1;
            if (clientId < 0 || chunkFields < Addresses.SIZE_OF_OFFSETS) {
                throw in.corrupt(at, "tree type and record size", "10 (" + (Addresses.SIZE_OF_OFFSETS
                        + rank * OFFSET_SIZE) + " bytes) or 11 for a " + rank + "-D dataset",
                        type + " (" + recordSize + " bytes)");
            }
            return new Format(ChunkRecordFormat.of(in, at, clientId, chunkFields), rank,
                    unfilteredChunkSize);
        }

        @Override
        public void encode(BTreeV2ChunkRecord record, LittleEndianWriter out) {
            chunk.encode(record.chunk(), out);
            for (long offset : record.scaled()) {
                out.putLong(offset);
            }
        }

        @Override
        public BTreeV2ChunkRecord decode(LittleEndianReader in) throws CorruptFileException {
            ChunkRecord record = chunk.decode(in, unfilteredChunkSize);
            long[] scaled = new long[rank];
            for (int d = 0; d < rank; d++) {
                scaled[d] = in.getLong("scaled offset");
            }
            return new BTreeV2ChunkRecord(scaled, record);
        }
    }
}
