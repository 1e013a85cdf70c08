package org.quire.format.hdf5.layout;

import java.io.IOException;

import org.quire.format.CorruptFileException;

/**
 * Fractal heap indirect block, specification section III.G ("Fractal Heap Indirect Block"):
 * the addresses of the blocks of a doubling table of {@code rows} rows.
 *
 * <pre>
 * +--------+---------+-------------------------+--------------------------------------+
 * | "FHIB" | version | heap header address (O) | block offset (heap offset size bytes)|
 * |        |   (0)   |                         |                                      |
 * +--------+---------+-------------------------+--------------------------------------+
 * | direct block addresses (O), min(rows, max direct rows) * width, row by row          |
 * | indirect block addresses (O), (rows - max direct rows) * width, if rows are more     |
 * | checksum                                                                            |
 * +-------------------------------------------------------------------------------------+
 * </pre>
 *
 * An undefined address is a block not allocated yet. (Heaps with I/O filters also store each
 * direct block's filtered size and mask; Quire reads heaps without filters.)
 *
 * @param children block addresses in table order: entry {@code row * width + column}
 */
public record FractalHeapIndirectBlock(long address, long blockOffset, int rows,
                                       long[] children) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("fractal heap indirect block", "FHIB", 0);

    /** Bytes of an indirect block of {@code rows} rows. */
    public static long size(FractalHeapHeader header, int rows) {
        return IDENTITY.prefixLength() + Addresses.SIZE_OF_OFFSETS
                + header.table().heapOffsetSize()
                + (long) rows * header.table().width() * Addresses.SIZE_OF_OFFSETS
                + MetadataValidator.CHECKSUM_SIZE;
    }

    /**
     * Reads and verifies the block of {@code rows} rows at {@code address} that the heap at
     * {@code headerAddress} places at {@code expectedOffset} of its address space.
     */
    public static FractalHeapIndirectBlock read(BlockFile file, long address, int rows,
                                                long headerAddress, FractalHeapHeader header,
                                                long expectedOffset) throws IOException {
        long size = size(header, rows);
        if (size > Integer.MAX_VALUE) {
            throw new CorruptFileException(file.path(), address, IDENTITY.structure(), "rows",
                    "a block that fits in memory", rows + " rows");
        }
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, (int) size, IDENTITY));
        in.skip(IDENTITY.prefixLength());
        long offset = checkOwner(in, headerAddress, header, expectedOffset);
        long[] children = new long[rows * header.table().width()];
        for (int i = 0; i < children.length; i++) {
            children[i] = in.getAddress("child block address");
        }
        return new FractalHeapIndirectBlock(address, offset, rows, children);
    }

    /** Reads and checks the heap header address and block offset every heap block starts with. */
    static long checkOwner(LittleEndianReader in, long headerAddress, FractalHeapHeader header,
                           long expectedOffset) throws CorruptFileException {
        long at = in.absolutePosition();
        long owner = in.getAddress("heap header address");
        if (owner != headerAddress) {
            throw in.corrupt(at, "heap header address", Long.toString(headerAddress),
                    Long.toUnsignedString(owner));
        }
        long offsetAt = in.absolutePosition();
        long offset = in.getUnsigned(header.table().heapOffsetSize(), "block offset");
        if (offset != expectedOffset) {
            throw in.corrupt(offsetAt, "block offset", Long.toString(expectedOffset)
                    + " (its place in the parent)", Long.toUnsignedString(offset));
        }
        return offset;
    }
}
