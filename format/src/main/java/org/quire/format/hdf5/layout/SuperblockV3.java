package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.quire.format.UnsupportedFormatException;

/**
 * Superblock versions 2 and 3, specification section II.A ("Version 2 and 3 superblocks"), at
 * address 0 of the file. Quire writes version 3; version 2 (libhdf5's format for
 * {@code libver='v108'}) has the same fields and is read alike.
 *
 * <pre>
 * 0       8       9          10         11          12                20
 * +-------+-------+----------+----------+-----------+-----------------+-----------------------+
 * | \211HDF\r\n\032\n | ver 2,3| size of  | size of  | consistency | base address    | superblock extension  |
 * |  (signature)      |       | offsets  | lengths  | flags       | (8)             | address (8)           |
 * +-------------------+-------+----------+----------+-------------+-----------------+-----------------------+
 * 28                       36                               44
 * +------------------------+--------------------------------+----------+
 * | end of file address (8)| root group object header (8)   | checksum |
 * +------------------------+--------------------------------+----------+
 * consistency flags: b0 open for writing, b2 open for SWMR writing (both cleared on close).
 * </pre>
 */
public record SuperblockV3(int consistencyFlags, long endOfFileAddress, long rootGroupAddress,
                           long extensionAddress) implements Superblock {

    public static final int SIZE = 48;
    public static final int FLAG_OPEN_FOR_WRITE = 0x01;
    public static final int FLAG_OPEN_FOR_SWMR_WRITE = 0x04;

    private static final BlockIdentity IDENTITY = new BlockIdentity("superblock",
            SuperblockV0.SIGNATURE_ONLY.signature(), 3);
    private static final BlockIdentity VERSION_2 = new BlockIdentity("superblock",
            SuperblockV0.SIGNATURE_ONLY.signature(), 2);
    private static final int FLAGS_OFFSET = 11;
    private static final int END_OF_FILE_ADDRESS_OFFSET = 28;
    private static final int CHECKSUM_OFFSET = SIZE - 4;

    /** A superblock without extension, as Quire writes it. */
    public SuperblockV3(int consistencyFlags, long endOfFileAddress, long rootGroupAddress) {
        this(consistencyFlags, endOfFileAddress, rootGroupAddress, Addresses.UNDEFINED);
    }

    @Override
    public int endOfFileAddressOffset() {
        return END_OF_FILE_ADDRESS_OFFSET;
    }

    /** libhdf5's defaults: these superblocks store other K values only in the extension. */
    @Override
    public BTreeV1Ranks ranks() {
        return BTreeV1Ranks.DEFAULT;
    }

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(SIZE);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(Addresses.SIZE_OF_OFFSETS).putByte(Addresses.SIZE_OF_LENGTHS)
                .putByte(consistencyFlags)
                .putAddress(0).putAddress(extensionAddress)
                .putAddress(endOfFileAddress).putAddress(rootGroupAddress);
        return out.putChecksumFrom(0).toByteArray();
    }

    @Override
    public byte[] clearedImage(BlockFile file, long endOfFile) throws IOException {
        byte[] image = file.read(0, SIZE, "superblock");
        ByteBuffer fields = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        fields.put(FLAGS_OFFSET, (byte) 0);
        Superblock.moveEndOfFile(fields, END_OF_FILE_ADDRESS_OFFSET, endOfFileAddress, endOfFile);
        fields.putInt(CHECKSUM_OFFSET, JenkinsLookup3.checksum(image, 0, CHECKSUM_OFFSET));
        return image;
    }

    /** Reads and verifies the version 2 or 3 superblock at address 0 of {@code file}. */
    public static SuperblockV3 read(BlockFile file) throws IOException {
        byte[] prefix = file.read(0, IDENTITY.prefixLength(), IDENTITY.structure());
        BlockIdentity identity = (prefix[Superblock.VERSION_OFFSET] & 0xff) == 2 ? VERSION_2
                : IDENTITY;
        MetadataValidator.verifyPrefix(file.path(), 0, prefix, identity);
        byte[] block = file.readVerified(0, SIZE, identity);
        LittleEndianReader in = file.reader(0, identity.structure(), block);
        in.skip(identity.prefixLength());
        BlockFile.requireSupported(in, "size of offsets", Addresses.SIZE_OF_OFFSETS);
        BlockFile.requireSupported(in, "size of lengths", Addresses.SIZE_OF_LENGTHS);
        int flags = in.getUnsignedByte("file consistency flags");
        long baseAt = in.absolutePosition();
        long base = in.getAddress("base address");
        Superblock.checkBaseAddress(file, base, baseAt);
        long extension = in.getAddress("superblock extension address");
        long endOfFile = Superblock.endOfFileFromStart(file, base,
                in.getAddress("end of file address"));
        long root = in.getAddress("root group object header address");
        return new SuperblockV3(flags, endOfFile, root, extension);
    }
}
