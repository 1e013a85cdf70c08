package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Extensible array header, specification section VII.C ("Extensible Array Header").
 *
 * <pre>
 * +--------+---------+-----------+--------------+----------+-------------+------------+
 * | "EAHD" | version | client ID | element size | max bits | index block | data block |
 * |        |   (0)   |           |              |          | elements    | min elmts  |
 * +--------+---------+-----------+--------------+----------+-------------+------------+
 * | super block min data pointers | data block page bits |
 * +-------------------------------+----------------------+
 * | # super blocks (L) | super blocks size (L) | # data blocks (L) | data blocks size (L)  |
 * +--------------------+-----------------------+-------------------+-----------------------+
 * | max index set (L)  | # elements realized (L)| index block address (O) | checksum         |
 * +--------------------+------------------------+-------------------------+------------------+
 * </pre>
 *
 * The statistics count created blocks and their bytes; "max index set" is one more than the
 * highest element index ever set (libhdf5 iterates up to it).
 */
public record ExtensibleArrayHeader(ChunkRecordFormat format,
                                    ChunkIndexParameters.ExtensibleArray parameters,
                                    Statistics statistics, long indexBlockAddress) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("extensible array header", "EAHD", 0);
    public static final int SIZE = IDENTITY.prefixLength() + 7 + 6 * Addresses.SIZE_OF_LENGTHS
            + Addresses.SIZE_OF_OFFSETS + MetadataValidator.CHECKSUM_SIZE;

    /** Counts libhdf5 keeps in the header. */
    public record Statistics(long superBlocks, long superBlockBytes, long dataBlocks,
                             long dataBlockBytes, long maxIndexSet, long elementsRealized) {
    }

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(format.clientId()).putByte(format.entrySize())
                .putByte(parameters.maxBits()).putByte(parameters.indexBlockElements())
                .putByte(parameters.dataBlockMinElements())
                .putByte(parameters.superBlockMinDataPointers())
                .putByte(parameters.dataBlockPageBits())
                .putLength(statistics.superBlocks()).putLength(statistics.superBlockBytes())
                .putLength(statistics.dataBlocks()).putLength(statistics.dataBlockBytes())
                .putLength(statistics.maxIndexSet()).putLength(statistics.elementsRealized())
                .putAddress(indexBlockAddress);
        return out.putChecksumFrom(0).toByteArray();
    }

    public static ExtensibleArrayHeader read(BlockFile file, long address) throws IOException {
        LittleEndianReader in = file.readVerifiedFields(address, SIZE, IDENTITY);
        ChunkRecordFormat format = ChunkRecordFormat.read(in);
        long parametersAt = in.absolutePosition();
        int maxBits = in.getUnsignedByte("max bits");
        int indexElements = in.getUnsignedByte("index block elements");
        int minElements = in.getUnsignedByte("data block minimum elements");
        int minPointers = in.getUnsignedByte("super block minimum data pointers");
        int pageBits = in.getUnsignedByte("data block page bits");
        ChunkIndexParameters.ExtensibleArray parameters = new ChunkIndexParameters.ExtensibleArray(
                maxBits, indexElements, minPointers, minElements, pageBits);
        if (!ExtensibleArrayGeometry.isValid(parameters)) {
            throw in.corrupt(parametersAt, "creation parameters",
                    "powers of two within libhdf5's limits", parameters.toString());
        }
        Statistics statistics = new Statistics(in.getLength("number of super blocks"),
                in.getLength("size of super blocks"), in.getLength("number of data blocks"),
                in.getLength("size of data blocks"), in.getLength("maximum index set"),
                in.getLength("number of elements"));
        return new ExtensibleArrayHeader(format, parameters, statistics,
                in.getAddress("index block address"));
    }
}
