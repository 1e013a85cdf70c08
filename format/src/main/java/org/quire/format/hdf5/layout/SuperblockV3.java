package org.quire.format.hdf5.layout;

import java.io.IOException;

import org.quire.format.UnsupportedFormatException;

/**
 * Superblock version 3, specification section II.A ("Version 2 and 3 superblocks"), at address
 * 0 of the file.
 *
 * <pre>
 * 0       8       9          10         11          12                20
 * +-------+-------+----------+----------+-----------+-----------------+-----------------------+
 * | \211HDF\r\n\032\n | ver 3 | size of  | size of  | consistency | base address    | superblock extension  |
 * |  (signature)      |       | offsets  | lengths  | flags       | (8)             | address (8)           |
 * +-------------------+-------+----------+----------+-------------+-----------------+-----------------------+
 * 28                       36                               44
 * +------------------------+--------------------------------+----------+
 * | end of file address (8)| root group object header (8)   | checksum |
 * +------------------------+--------------------------------+----------+
 * consistency flags: b0 open for writing, b2 open for SWMR writing (both cleared on close).
 * </pre>
 */
public record SuperblockV3(int consistencyFlags, long endOfFileAddress, long rootGroupAddress) {

    public static final int SIZE = 48;
    public static final int FLAG_OPEN_FOR_WRITE = 0x01;
    public static final int FLAG_OPEN_FOR_SWMR_WRITE = 0x04;

    private static final BlockIdentity IDENTITY = new BlockIdentity("superblock",
            new byte[] {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'}, 3);

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(Addresses.SIZE_OF_OFFSETS).putByte(Addresses.SIZE_OF_LENGTHS)
                .putByte(consistencyFlags)
                .putAddress(0).putAddress(Addresses.UNDEFINED)
                .putAddress(endOfFileAddress).putAddress(rootGroupAddress);
        return out.putChecksumFrom(0).toByteArray();
    }

    /** Reads and verifies the superblock at address 0 of {@code file}. */
    public static SuperblockV3 read(BlockFile file) throws IOException {
        byte[] prefix = file.read(0, IDENTITY.prefixLength(), IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), 0, prefix, IDENTITY);
        byte[] block = file.readVerified(0, SIZE, IDENTITY);
        LittleEndianReader in = file.reader(0, IDENTITY.structure(), block);
        in.skip(IDENTITY.prefixLength());
        file.requireSupported("size of offsets", in.getUnsignedByte("size of offsets"),
                Addresses.SIZE_OF_OFFSETS);
        file.requireSupported("size of lengths", in.getUnsignedByte("size of lengths"),
                Addresses.SIZE_OF_LENGTHS);
        int flags = in.getUnsignedByte("file consistency flags");
        long base = in.getAddress("base address");
        if (base != 0) {
            throw new UnsupportedFormatException(file.path(), "superblock base address " + base
                    + "; supported: 0");
        }
        in.getAddress("superblock extension address");
        long endOfFile = in.getAddress("end of file address");
        long root = in.getAddress("root group object header address");
        return new SuperblockV3(flags, endOfFile, root);
    }
}
