package org.quire.format.hdf5.layout;

/**
 * Sizes of file addresses ("offsets") and lengths, and the undefined address (specification
 * section II.A, "Size of Offsets" / "Size of Lengths"). Quire writes and reads files whose
 * superblock declares 8-byte offsets and 8-byte lengths, libhdf5's default.
 */
public final class Addresses {

    /** Bytes of every file address. */
    public static final int SIZE_OF_OFFSETS = 8;

    /** Bytes of every length field. */
    public static final int SIZE_OF_LENGTHS = 8;

    /** The address with all bits set: "no block here yet". */
    public static final long UNDEFINED = -1L;

    private Addresses() {
    }

    public static boolean isDefined(long address) {
        return address != UNDEFINED;
    }
}
