package org.quire.format.hdf5.layout;

import java.io.IOException;

import org.quire.format.CorruptFileException;

/**
 * The tail node of a skip list chunk index (docs/hdf5.md, "The skip list chunk index",
 * section S.3): the number of chunks the index holds and, per level, the rightmost supernode
 * whose height exceeds it. Its one in-place write commits an append; it never moves, and it is
 * placed inside one 512-byte sector ({@link #allocate}; 273 bytes for 32 levels), so a disk
 * that writes sectors whole never tears it.
 *
 * <pre>
 * +--------+---------+-----------------+------------------------------------------+----------+
 * | "QSLT" | version | chunk count (L) | rightmost supernode at level 0 .. H-1 (O)| checksum |
 * |        |   (0)   |                 | (the ghost's address where there is none)|  (4)     |
 * +--------+---------+-----------------+------------------------------------------+----------+
 * </pre>
 *
 * The level-{@code l} address is that of supernode {@link SkipListGeometry#predecessor}({@code
 * supernodes(count)}, l): the tail links back exactly as a supernode of full height would.
 */
public record SkipListTail(long chunkCount, long[] rightmost) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("skip list tail", "QSLT", 0);

    /** The unit a disk writes whole; the tail never crosses a boundary of one. */
    public static final int SECTOR_SIZE = 512;

    /**
     * Allocates a tail in {@code file}, after padding that keeps it inside one sector
     * (addresses count from the superblock, which starts at a multiple of 512).
     */
    public static long allocate(BlockFile file, SkipListGeometry geometry) {
        int size = size(geometry);
        long offset = file.endOfAllocation() % SECTOR_SIZE;
        if (offset + size > SECTOR_SIZE) {
            file.allocate(SECTOR_SIZE - offset);
        }
        return file.allocate(size);
    }

    public static int size(SkipListGeometry geometry) {
        return IDENTITY.prefixLength() + Addresses.SIZE_OF_LENGTHS
                + geometry.maxHeight() * Addresses.SIZE_OF_OFFSETS
                + MetadataValidator.CHECKSUM_SIZE;
    }

    public byte[] encode(SkipListGeometry geometry) {
        LittleEndianWriter out = new LittleEndianWriter(size(geometry));
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version()).putLength(chunkCount);
        for (long address : rightmost) {
            out.putAddress(address);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    public static SkipListTail read(BlockFile file, long address, SkipListGeometry geometry)
            throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, size(geometry), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        long countAt = in.absolutePosition();
        long count = in.getLength("chunk count");
        if (count < 0 || geometry.supernodes(count) > Long.MAX_VALUE >>> 1) {
            throw in.corrupt(countAt, "chunk count", "0..2^62", Long.toUnsignedString(count));
        }
        long[] rightmost = new long[geometry.maxHeight()];
        for (int level = 0; level < rightmost.length; level++) {
            rightmost[level] = in.getAddress("rightmost supernode");
        }
        return new SkipListTail(count, rightmost);
    }

    /**
     * Checks the tail's {@code rightmost} links, read at {@code address}, against {@code
     * expected}: the addresses the supernodes (or the ghost) found walking the list have.
     */
    public static void checkRightmost(BlockFile file, long address, long[] rightmost,
                                      long[] expected) throws CorruptFileException {
        for (int level = 0; level < rightmost.length; level++) {
            if (rightmost[level] != expected[level]) {
                long at = address + IDENTITY.prefixLength() + Addresses.SIZE_OF_LENGTHS
                        + (long) level * Addresses.SIZE_OF_OFFSETS;
                throw new CorruptFileException(file.path(), at, IDENTITY.structure(),
                        "rightmost supernode at level " + level,
                        Long.toUnsignedString(expected[level]),
                        Long.toUnsignedString(rightmost[level]));
            }
        }
    }
}
