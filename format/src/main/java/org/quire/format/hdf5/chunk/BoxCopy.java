package org.quire.format.hdf5.chunk;

/**
 * Copies an N-dimensional box of elements between two row-major arrays of different shapes, one
 * contiguous run along the last dimension at a time.
 */
public final class BoxCopy {

    private BoxCopy() {
    }

    /**
     * Copies the box of {@code extent} elements at {@code sourceOrigin} in {@code source} (shape
     * {@code sourceShape}) to {@code targetOrigin} in {@code target} (shape {@code targetShape}).
     */
    public static void copy(byte[] source, long[] sourceShape, long[] sourceOrigin,
                     byte[] target, long[] targetShape, long[] targetOrigin,
                     long[] extent, int elementSize) {
        int rank = extent.length;
        for (long size : extent) {
            if (size == 0) {
                return;
            }
        }
        int run = (int) extent[rank - 1] * elementSize;
        long[] position = new long[rank];
        while (true) {
            long sourceOffset = 0;
            long targetOffset = 0;
            for (int d = 0; d < rank; d++) {
                sourceOffset = sourceOffset * sourceShape[d] + sourceOrigin[d] + position[d];
                targetOffset = targetOffset * targetShape[d] + targetOrigin[d] + position[d];
            }
            System.arraycopy(source, (int) sourceOffset * elementSize, target,
                    (int) targetOffset * elementSize, run);
            int d = rank - 2;
            while (d >= 0 && ++position[d] == extent[d]) {
                position[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** Fills the box of {@code extent} elements at {@code origin} with copies of {@code element}. */
    public static void fill(byte[] target, long[] targetShape, long[] origin, long[] extent,
                     byte[] element) {
        byte[] box = new byte[(int) Shapes.elementCount(extent) * element.length];
        for (int i = 0; i < box.length; i += element.length) {
            System.arraycopy(element, 0, box, i, element.length);
        }
        copy(box, extent, new long[extent.length], target, targetShape, origin, extent,
                element.length);
    }
}
