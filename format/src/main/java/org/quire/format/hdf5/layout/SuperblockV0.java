package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Superblock versions 0 and 1, specification section II.A ("Version 0 and 1 superblocks"), at
 * address 0: what libhdf5 writes by default (h5py's {@code libver='earliest'}). No checksum:
 * signature, versions, sizes and K values are checked instead.
 *
 * <pre>
 * 0           8         9           10          11   12          13       14       15
 * +-----------+---------+-----------+-----------+----+-----------+--------+--------+----+
 * | signature | version | free-space| root entry| 0  | shared hdr| size of| size of| 0  |
 * | (8)       | (0, 1)  | version 0 | version 0 |    | version 0 | offsets| lengths|    |
 * +-----------+---------+-----------+-----------+----+-----------+--------+--------+----+
 * 16                  18                      20                      24 (version 1 only)
 * +-------------------+-----------------------+-----------------------+---------------------+
 * | group leaf node K | group internal node K | consistency flags (4) | indexed storage     |
 * | (2)               | (2)                   |                       | internal node K (2),|
 * |                   |                       |                       | reserved (2)        |
 * +-------------------+-----------------------+-----------------------+---------------------+
 * then: base address (8) | free-space info address (8) | end of file address (8) |
 *       driver information block address (8) | root group symbol table entry (40)
 * </pre>
 */
public record SuperblockV0(int version, int consistencyFlags, long endOfFileAddress,
                           BTreeV1Ranks ranks, long freeSpaceAddress,
                           SymbolTableEntry rootGroupEntry)
        implements Superblock {

    /**
     * The end of file address Quire's writer stores while it has the file open (2^63-1): libhdf5
     * refuses a file whose stored end of file lies past its size in every open mode ("truncated
     * file"), where it ignores these superblocks' consistency flags (docs/hdf5.md, "The old
     * format").
     */
    public static final long WRITING_GUARD = Long.MAX_VALUE;
    /** Consistency flag b0: libhdf5 sets it while it has the file open for writing. */
    public static final int FLAG_OPEN_FOR_WRITE = 0x01;
    private static final int FLAGS_OFFSET = 20;

    /** The format signature alone, to recognise a superblock of any version. */
    static final BlockIdentity SIGNATURE_ONLY = new BlockIdentity("superblock",
            new byte[] {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'},
            BlockIdentity.NO_VERSION);

    private static final int FIXED_SIZE_V0 = 24;
    private static final int FIXED_SIZE_V1 = 28;
    private static final int ADDRESSES = 4;

    /** Bytes of the version-{@code version} superblock. */
    public static int size(int version) {
        return rootGroupEntryOffset(version) + SymbolTableEntry.SIZE;
    }

    private static int fixedSize(int version) {
        return version == 0 ? FIXED_SIZE_V0 : FIXED_SIZE_V1;
    }

    /** Offset of the root group's symbol table entry in a version-{@code version} superblock. */
    public static int rootGroupEntryOffset(int version) {
        return fixedSize(version) + ADDRESSES * Addresses.SIZE_OF_OFFSETS;
    }

    /** Absolute offset of the consistency flags, for error messages. */
    public static int consistencyFlagsOffset() {
        return FLAGS_OFFSET;
    }

    /**
     * Whether the end of file address is {@link #WRITING_GUARD} or past it (as unsigned): a
     * Quire writer has the file open or died with it open. Past it is what is left of the
     * guard after libhdf5's {@code h5clear --increment} (it adds the increment to the end of
     * allocation); no real file is that long.
     */
    public boolean guarded() {
        return Long.compareUnsigned(endOfFileAddress, WRITING_GUARD) >= 0;
    }

    /** This superblock with other consistency flags and end of file address. */
    public SuperblockV0 with(int flags, long endOfFile) {
        return new SuperblockV0(version, flags, endOfFile, ranks, freeSpaceAddress,
                rootGroupEntry);
    }

    /**
     * The superblock's bytes, as libhdf5 writes them (base address 0, no driver information
     * block, reserved bytes zero).
     */
    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter(size(version));
        out.putBytes(SIGNATURE_ONLY.signature()).putByte(version)
                .putByte(0).putByte(0).putByte(0).putByte(0)
                .putByte(Addresses.SIZE_OF_OFFSETS).putByte(Addresses.SIZE_OF_LENGTHS).putByte(0)
                .putShort(ranks.groupLeafNodeK()).putShort(ranks.groupInternalNodeK())
                .putInt(consistencyFlags);
        if (version == 1) {
            out.putShort(ranks.chunkNodeK()).putShort(0);
        }
        out.putAddress(0).putAddress(freeSpaceAddress).putAddress(endOfFileAddress)
                .putAddress(Addresses.UNDEFINED);
        rootGroupEntry.encode(out);
        return out.toByteArray();
    }

    @Override
    public int endOfFileAddressOffset() {
        return fixedSize(version) + 2 * Addresses.SIZE_OF_OFFSETS;
    }

    @Override
    public long extensionAddress() {
        return Addresses.UNDEFINED;
    }

    @Override
    public long rootGroupAddress() {
        return rootGroupEntry.objectHeaderAddress();
    }

    @Override
    public byte[] clearedImage(BlockFile file, long endOfFile) throws IOException {
        byte[] image = file.read(0, size(version), "superblock");
        ByteBuffer fields = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        fields.putInt(FLAGS_OFFSET, 0);
        Superblock.moveEndOfFile(fields, endOfFileAddressOffset(), endOfFileAddress, endOfFile);
        return image;
    }

    /** Reads the version-{@code version} (0 or 1) superblock at address 0 of {@code file}. */
    static SuperblockV0 read(BlockFile file, int version) throws IOException {
        byte[] block = file.read(0, size(version), "superblock");
        LittleEndianReader in = file.reader(0, "superblock", block);
        in.skip(SIGNATURE_ONLY.signature().length + 1);
        requireZero(in, "free-space storage version");
        requireZero(in, "root group symbol table entry version");
        in.skip(1);
        requireZero(in, "shared header message format version");
        BlockFile.requireSupported(in, "size of offsets", Addresses.SIZE_OF_OFFSETS);
        BlockFile.requireSupported(in, "size of lengths", Addresses.SIZE_OF_LENGTHS);
        in.skip(1);
        int leafK = positiveK(in, "group leaf node K");
        int internalK = positiveK(in, "group internal node K");
        int flags = in.getInt("file consistency flags");
        int chunkK = BTreeV1Ranks.DEFAULT.chunkNodeK();
        if (version == 1) {
            chunkK = positiveK(in, "indexed storage internal node K");
            in.skip(2);
        }
        long baseAt = in.absolutePosition();
        long base = in.getAddress("base address");
        Superblock.checkBaseAddress(file, base, baseAt);
        long freeSpace = in.getAddress("free-space info address");
        long endOfFile = Superblock.endOfFileFromStart(file, base,
                in.getAddress("end of file address"));
        long driverAt = in.absolutePosition();
        long driver = in.getAddress("driver information block address");
        if (Addresses.isDefined(driver)) {
            throw new UnsupportedFormatException(file.path(), "superblock driver information block address", driverAt,
                    "a driver information block at offset " + driver + " (a multi-file driver)",
                    "single files (no driver information block)");
        }
        SymbolTableEntry root = SymbolTableEntry.decode(in);
        file.countChecked("superblock");
        return new SuperblockV0(version, flags, endOfFile,
                new BTreeV1Ranks(leafK, internalK, chunkK), freeSpace, root);
    }

    private static void requireZero(LittleEndianReader in, String field)
            throws UnsupportedFormatException, CorruptFileException {
        long at = in.absolutePosition();
        int value = in.getUnsignedByte(field);
        if (value != 0) {
            throw new UnsupportedFormatException(in.file(), "superblock " + field, at,
                    Integer.toString(value), "0");
        }
    }

    private static int positiveK(LittleEndianReader in, String field)
            throws CorruptFileException {
        long at = in.absolutePosition();
        int k = in.getUnsignedShort(field);
        if (k == 0) {
            throw in.corrupt(at, field, "1..65535", "0");
        }
        return k;
    }
}
