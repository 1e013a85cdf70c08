package org.quire.format.hdf5.chunk;

/** Arithmetic on dataset shapes that refuses to overflow. */
public final class Shapes {

    private Shapes() {
    }

    /** The product of {@code shape}'s sizes (1 for a scalar). */
    public static long elementCount(long[] shape) {
        long count = 1;
        for (long size : shape) {
            if (size < 0) {
                throw new IllegalArgumentException("negative size " + size);
            }
            count = Math.multiplyExact(count, size);
        }
        return count;
    }

    /** {@code ceil(a / b)} for positive {@code b}. */
    public static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
