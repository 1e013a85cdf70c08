package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * The configuration node of a skip list chunk index, the structure the data layout message
 * points at (docs/hdf5.md, "The skip list chunk index", section S.2). Written once, with the
 * dataset; never changes.
 *
 * <pre>
 * +--------+---------+-----------+--------------+----------------+------------+
 * | "QSLC" | version | client ID | element size | supernode bits | max height |
 * |        |   (0)   |  (0 / 1)  |  (8, 13..20) |  (log2 K)      |            |
 * +--------+---------+-----------+--------------+----------------+------------+
 * | tail address (O) | ghost supernode address (O) | checksum (lookup3, 4) |
 * +------------------+-----------------------------+-----------------------+
 * </pre>
 *
 * Client ID and element size are those of the extensible array's elements ({@link
 * ChunkRecordFormat}): 0 with 8-byte addresses for unfiltered chunks, 1 with address, chunk
 * size and filter mask for filtered ones.
 */
public record SkipListConfiguration(ChunkRecordFormat format, SkipListGeometry geometry,
                                    long tailAddress, long ghostAddress) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("skip list configuration", "QSLC", 0);
    public static final int SIZE = IDENTITY.prefixLength() + 4 + 2 * Addresses.SIZE_OF_OFFSETS
            + MetadataValidator.CHECKSUM_SIZE;

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(format.clientId()).putByte(format.entrySize())
                .putByte(geometry.supernodeBits()).putByte(geometry.maxHeight())
                .putAddress(tailAddress).putAddress(ghostAddress);
        return out.putChecksumFrom(0).toByteArray();
    }

    public static SkipListConfiguration read(BlockFile file, long address) throws IOException {
        LittleEndianReader in = file.readVerifiedFields(address, SIZE, IDENTITY);
        ChunkRecordFormat format = ChunkRecordFormat.read(in);
        long geometryAt = in.absolutePosition();
        int bits = in.getUnsignedByte("supernode bits");
        int height = in.getUnsignedByte("max height");
        if (!SkipListGeometry.isValid(bits, height)) {
            throw in.corrupt(geometryAt, "supernode bits and max height",
                    "0.." + SkipListGeometry.MAX_SUPERNODE_BITS + " and 1.."
                            + SkipListGeometry.MAX_HEIGHT, bits + " and " + height);
        }
        return new SkipListConfiguration(format, new SkipListGeometry(bits, height),
                in.getAddress("tail address"), in.getAddress("ghost supernode address"));
    }
}
