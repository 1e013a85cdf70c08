package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Extensible array index block, specification section VII.C ("Extensible Array Index Block").
 *
 * <pre>
 * +--------+---------+-----------+--------------------+------------------------------------+
 * | "EAIB" | version | client ID | header address (O) | elements (index block elements x   |
 * |        |   (0)   |           |                    | element size)                      |
 * +--------+---------+-----------+--------------------+------------------------------------+
 * | data block addresses (2 x (min pointers - 1), O each) | super block addresses (O each) |
 * +-------------------------------------------------------+--------------------------------+
 * | checksum |
 * +----------+
 * </pre>
 */
public record ExtensibleArrayIndexBlock(ChunkRecord[] elements, long[] dataBlockAddresses,
                                        long[] superBlockAddresses) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("extensible array index block", "EAIB", 0);

    /** An index block with no element, data block or super block yet. */
    public static ExtensibleArrayIndexBlock empty(ExtensibleArrayGeometry geometry) {
        ChunkRecord[] elements = new ChunkRecord[geometry.parameters().indexBlockElements()];
        java.util.Arrays.fill(elements, ChunkRecord.UNWRITTEN);
        long[] dataBlocks = new long[geometry.indexBlockDataBlockAddresses()];
        java.util.Arrays.fill(dataBlocks, Addresses.UNDEFINED);
        long[] superBlocks = new long[geometry.indexBlockSuperBlockAddresses()];
        java.util.Arrays.fill(superBlocks, Addresses.UNDEFINED);
        return new ExtensibleArrayIndexBlock(elements, dataBlocks, superBlocks);
    }

    public static int size(ExtensibleArrayGeometry geometry, ChunkRecordFormat format) {
        return IDENTITY.prefixLength() + ArrayBlockPrefix.SIZE
                + geometry.parameters().indexBlockElements() * format.entrySize()
                + (geometry.indexBlockDataBlockAddresses() + geometry.indexBlockSuperBlockAddresses())
                * Addresses.SIZE_OF_OFFSETS
                + MetadataValidator.CHECKSUM_SIZE;
    }

    public byte[] encode(ChunkRecordFormat format, long headerAddress) {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version());
        ArrayBlockPrefix.encode(out, format, headerAddress);
        for (ChunkRecord element : elements) {
            format.encode(element, out);
        }
        for (long address : dataBlockAddresses) {
            out.putAddress(address);
        }
        for (long address : superBlockAddresses) {
            out.putAddress(address);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    public static ExtensibleArrayIndexBlock read(BlockFile file, long address,
                                                 ExtensibleArrayGeometry geometry,
                                                 ChunkRecordFormat format, long headerAddress,
                                                 long unfilteredChunkSize) throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, size(geometry, format), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        ArrayBlockPrefix.check(in, format, headerAddress);
        ExtensibleArrayIndexBlock block = empty(geometry);
        for (int i = 0; i < block.elements.length; i++) {
            block.elements[i] = format.decode(in, unfilteredChunkSize);
        }
        for (int i = 0; i < block.dataBlockAddresses.length; i++) {
            block.dataBlockAddresses[i] = in.getAddress("data block address");
        }
        for (int i = 0; i < block.superBlockAddresses.length; i++) {
            block.superBlockAddresses[i] = in.getAddress("super block address");
        }
        return block;
    }
}
