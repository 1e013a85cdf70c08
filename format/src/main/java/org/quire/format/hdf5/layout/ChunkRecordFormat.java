package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * The element of a fixed or extensible array chunk index (specification sections VII.B/VII.C,
 * "Fixed/Extensible Array Data Block", client IDs 0 and 1).
 *
 * <pre>
 * client 0, unfiltered chunks:  +-------------+
 *                               | address (8) |
 *                               +-------------+
 * client 1, filtered chunks:    +-------------+---------------------------+-----------------+
 *                               | address (8) | chunk size (1..8 bytes)   | filter mask (4) |
 *                               +-------------+---------------------------+-----------------+
 * </pre>
 *
 * The chunk size field is as wide as libhdf5 makes it (H5Dfarray.c, H5Dearray.c): one byte
 * more than needed for the unfiltered chunk size, at most 8.
 */
public record ChunkRecordFormat(boolean filtered, int chunkSizeWidth) {

    public static final int CLIENT_UNFILTERED = 0;
    public static final int CLIENT_FILTERED = 1;

    public static ChunkRecordFormat unfiltered() {
        return new ChunkRecordFormat(false, 0);
    }

    /** The format for filtered chunks of {@code chunkBytes} bytes before filtering. */
    public static ChunkRecordFormat filtered(long chunkBytes) {
        int log2 = 63 - Long.numberOfLeadingZeros(Math.max(1, chunkBytes));
        return new ChunkRecordFormat(true, Math.min(8, 1 + (log2 + 8) / 8));
    }

    /** Reads the client ID and element size fields of an array header. */
    public static ChunkRecordFormat read(LittleEndianReader in) throws CorruptFileException {
        long at = in.absolutePosition();
        int clientId = in.getUnsignedByte("client ID");
        return of(in, at, clientId, in.getUnsignedByte("element size"));
    }

    /** The format a stored client ID and element size describe. */
    public static ChunkRecordFormat of(LittleEndianReader in, long at, int clientId, int entrySize)
            throws CorruptFileException {
        if (clientId == CLIENT_UNFILTERED && entrySize == Addresses.SIZE_OF_OFFSETS) {
            return unfiltered();
        }
        int width = entrySize - Addresses.SIZE_OF_OFFSETS - 4;
        if (clientId != CLIENT_FILTERED || width < 1 || width > 8) {
            throw in.corrupt(at, "client ID and element size",
                    "0 with 8 bytes or 1 with 13..20 bytes", clientId + " with " + entrySize);
        }
        return new ChunkRecordFormat(true, width);
    }

    public int clientId() {
        return filtered ? CLIENT_FILTERED : CLIENT_UNFILTERED;
    }

    /** Bytes of one element. */
    public int entrySize() {
        return Addresses.SIZE_OF_OFFSETS + (filtered ? chunkSizeWidth + 4 : 0);
    }

    public void encode(ChunkRecord record, LittleEndianWriter out) {
        out.putAddress(record.address());
        if (filtered) {
            out.putUnsigned(record.storedSize(), chunkSizeWidth).putInt(record.filterMask());
        }
    }

    /** One element; {@code unfilteredChunkSize} is the stored size of an unfiltered chunk. */
    public ChunkRecord decode(LittleEndianReader in, long unfilteredChunkSize)
            throws CorruptFileException {
        long address = in.getAddress("chunk address");
        if (!filtered) {
            return Addresses.isDefined(address)
                    ? new ChunkRecord(address, unfilteredChunkSize, 0) : ChunkRecord.UNWRITTEN;
        }
        long size = in.getUnsigned(chunkSizeWidth, "chunk size");
        int mask = in.getInt("filter mask");
        return Addresses.isDefined(address) ? new ChunkRecord(address, size, mask)
                : ChunkRecord.UNWRITTEN;
    }
}
