package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Fixed array header, specification section VII.B ("Fixed Array Header").
 *
 * <pre>
 * +--------+---------+-----------+--------------+-----------+----------------------+
 * | "FAHD" | version | client ID | element size | page bits | max # of entries (L) |
 * |        |   (0)   |           |              |           |                      |
 * +--------+---------+-----------+--------------+-----------+----------------------+
 * | data block address (O) | checksum |
 * +------------------------+----------+
 * </pre>
 */
public record FixedArrayHeader(ChunkRecordFormat format, int pageBits, long entryCount,
                               long dataBlockAddress) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("fixed array header", "FAHD", 0);
    public static final int SIZE = IDENTITY.prefixLength() + 3 + Addresses.SIZE_OF_LENGTHS
            + Addresses.SIZE_OF_OFFSETS + MetadataValidator.CHECKSUM_SIZE;

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(format.clientId()).putByte(format.entrySize()).putByte(pageBits)
                .putLength(entryCount).putAddress(dataBlockAddress);
        return out.putChecksumFrom(0).toByteArray();
    }

    public static FixedArrayHeader read(BlockFile file, long address) throws IOException {
        LittleEndianReader in = file.readVerifiedFields(address, SIZE, IDENTITY);
        ChunkRecordFormat format = ChunkRecordFormat.read(in);
        long pageBitsAt = in.absolutePosition();
        int pageBits = in.getUnsignedByte("page bits");
        if (pageBits < 1 || pageBits > 32) {
            throw in.corrupt(pageBitsAt, "page bits", "1..32", Integer.toString(pageBits));
        }
        long countAt = in.absolutePosition();
        long count = in.getLength("maximum number of entries");
        if (count < 0) {
            throw in.corrupt(countAt, "maximum number of entries", "a count below 2^63",
                    Long.toUnsignedString(count));
        }
        return new FixedArrayHeader(format, pageBits, count, in.getAddress("data block address"));
    }
}
