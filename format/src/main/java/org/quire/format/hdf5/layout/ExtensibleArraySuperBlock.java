package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Extensible array secondary ("super") block, specification section VII.C ("Extensible Array
 * Secondary Block").
 *
 * <pre>
 * +--------+---------+-----------+--------------------+-----------------------------------+
 * | "EASB" | version | client ID | header address (O) | block offset (array offset size)  |
 * |        |   (0)   |           |                    | = index of its first element      |
 * +--------+---------+-----------+--------------------+-----------------------------------+
 * | page bitmap (only if its data blocks are paged): bit d x pages + p is page p of data   |
 * | block d; # data blocks x ceil(pages / 8) bytes | data block addresses (O each) | checksum |
 * +------------------------------+-------------------------------+------------------------+
 * </pre>
 *
 * The block offset and the data block offsets count elements from the first element after the
 * index block's.
 */
public record ExtensibleArraySuperBlock(int superBlock, long[] dataBlockAddresses,
                                        byte[] pageBitmaps) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("extensible array super block", "EASB", 0);

    public static ExtensibleArraySuperBlock empty(ExtensibleArrayGeometry geometry, int superBlock) {
        long[] dataBlocks = new long[(int) geometry.dataBlocks(superBlock)];
        java.util.Arrays.fill(dataBlocks, Addresses.UNDEFINED);
        return new ExtensibleArraySuperBlock(superBlock, dataBlocks,
                new byte[bitmapBytesPerDataBlock(geometry, superBlock) * dataBlocks.length]);
    }

    /** Bitmap bytes for one data block of super block {@code s} (0 when unpaged). */
    public static int bitmapBytesPerDataBlock(ExtensibleArrayGeometry geometry, int superBlock) {
        return PageBitmap.size(geometry.pagesPerDataBlock(superBlock));
    }

    public static int size(ExtensibleArrayGeometry geometry, int superBlock) {
        long dataBlocks = geometry.dataBlocks(superBlock);
        return (int) (IDENTITY.prefixLength() + ArrayBlockPrefix.SIZE + geometry.arrayOffsetSize()
                + dataBlocks * bitmapBytesPerDataBlock(geometry, superBlock)
                + dataBlocks * Addresses.SIZE_OF_OFFSETS + MetadataValidator.CHECKSUM_SIZE);
    }

    public boolean pageWritten(ExtensibleArrayGeometry geometry, long dataBlock, long page) {
        return PageBitmap.get(pageBitmaps, pageBit(geometry, dataBlock, page));
    }

    public void markPageWritten(ExtensibleArrayGeometry geometry, long dataBlock, long page) {
        PageBitmap.set(pageBitmaps, pageBit(geometry, dataBlock, page));
    }

    /** The bits of all data blocks are consecutive (libhdf5's "page init index"). */
    private long pageBit(ExtensibleArrayGeometry geometry, long dataBlock, long page) {
        return dataBlock * geometry.pagesPerDataBlock(superBlock) + page;
    }

    public byte[] encode(ExtensibleArrayGeometry geometry, ChunkRecordFormat format,
                         long headerAddress) {
        LittleEndianWriter out = new LittleEndianWriter(size(geometry, superBlock));
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version());
        ArrayBlockPrefix.encode(out, format, headerAddress);
        out.putUnsigned(geometry.startElement(superBlock), geometry.arrayOffsetSize())
                .putBytes(pageBitmaps);
        for (long address : dataBlockAddresses) {
            out.putAddress(address);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    public static ExtensibleArraySuperBlock read(BlockFile file, long address,
                                                 ExtensibleArrayGeometry geometry, int superBlock,
                                                 ChunkRecordFormat format, long headerAddress)
            throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, size(geometry, superBlock), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        ArrayBlockPrefix.check(in, format, headerAddress);
        long offsetAt = in.absolutePosition();
        long offset = in.getUnsigned(geometry.arrayOffsetSize(), "block offset");
        if (offset != geometry.startElement(superBlock)) {
            throw in.corrupt(offsetAt, "block offset",
                    Long.toString(geometry.startElement(superBlock)), Long.toString(offset));
        }
        ExtensibleArraySuperBlock block = empty(geometry, superBlock);
        byte[] bitmaps = in.getBytes(block.pageBitmaps.length, "page bitmap");
        System.arraycopy(bitmaps, 0, block.pageBitmaps, 0, bitmaps.length);
        for (int i = 0; i < block.dataBlockAddresses.length; i++) {
            block.dataBlockAddresses[i] = in.getAddress("data block address");
        }
        return block;
    }
}
