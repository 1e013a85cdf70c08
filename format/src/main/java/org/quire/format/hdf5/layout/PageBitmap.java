package org.quire.format.hdf5.layout;

/**
 * The "page initialized" bitmaps of fixed and extensible array blocks: bit {@code i} is set once
 * page {@code i} has been written. Bit 0 is the high bit of the first byte (libhdf5's
 * {@code H5VM_bit_get} order).
 */
public final class PageBitmap {

    private PageBitmap() {
    }

    /** Bytes of a bitmap of {@code bits} bits. */
    public static int size(long bits) {
        return (int) ((bits + 7) / 8);
    }

    public static boolean get(byte[] bitmap, long index) {
        return (bitmap[(int) (index >>> 3)] & (0x80 >>> (index & 7))) != 0;
    }

    public static void set(byte[] bitmap, long index) {
        bitmap[(int) (index >>> 3)] |= (byte) (0x80 >>> (index & 7));
    }
}
