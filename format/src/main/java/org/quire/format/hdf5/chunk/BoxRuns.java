package org.quire.format.hdf5.chunk;

/**
 * The runs of consecutive elements an N-dimensional box covers in two row-major arrays of
 * different shapes (a chunk and a selection, a dataset and a selection): what a copy between them
 * moves with one bulk operation each. Trailing dimensions the box spans whole in both arrays are
 * merged into the runs, so a box covering whole rows of both is one run, not one per row.
 */
public final class BoxRuns {

    private BoxRuns() {
    }

    /** Receives one run: {@code elements} consecutive elements in both arrays. */
    @FunctionalInterface
    public interface Visitor<E extends Exception> {
        /**
         * @param sourceElement index of the run's first element in the source array
         * @param targetElement index of the run's first element in the target array
         * @param elements      length of the run
         */
        void visit(long sourceElement, long targetElement, long elements) throws E;
    }

    /**
     * Visits, in row-major order, the runs of the box of {@code extent} elements at
     * {@code sourceOrigin} in an array of {@code sourceShape} and at {@code targetOrigin} in one
     * of {@code targetShape}. A box with a zero-sized dimension has no runs; a rank-0 box (a
     * scalar) is one run of one element.
     */
    public static <E extends Exception> void forEach(long[] sourceShape, long[] sourceOrigin,
                                                     long[] targetShape, long[] targetOrigin,
                                                     long[] extent, Visitor<E> visitor) throws E {
        int rank = extent.length;
        for (long size : extent) {
            if (size == 0) {
                return;
            }
        }
        if (rank == 0) {
            visitor.visit(0, 0, 1);
            return;
        }
        // Dimensions from 'inner' on form one run: each is whole in both arrays, except the
        // first of them, which may be any part of a row.
        int inner = rank - 1;
        long run = extent[rank - 1];
        while (inner > 0 && isWhole(sourceShape, targetShape, extent, inner)) {
            inner--;
            run *= extent[inner];
        }
        long[] position = new long[inner];
        while (true) {
            long source = 0;
            long target = 0;
            for (int d = 0; d < rank; d++) {
                long offset = d < inner ? position[d] : 0;
                source = source * sourceShape[d] + sourceOrigin[d] + offset;
                target = target * targetShape[d] + targetOrigin[d] + offset;
            }
            visitor.visit(source, target, run);
            int d = inner - 1;
            while (d >= 0 && ++position[d] == extent[d]) {
                position[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * Whether the box of {@code extent} elements is one run in arrays of both shapes: every
     * dimension after the first is whole in both.
     */
    public static boolean isOneRun(long[] sourceShape, long[] targetShape, long[] extent) {
        for (int d = 1; d < extent.length; d++) {
            if (!isWhole(sourceShape, targetShape, extent, d)) {
                return false;
            }
        }
        return true;
    }

    /** The row-major index of the element at {@code position} in an array of {@code shape}. */
    public static long elementIndex(long[] shape, long[] position) {
        long index = 0;
        for (int d = 0; d < shape.length; d++) {
            index = index * shape[d] + position[d];
        }
        return index;
    }

    private static boolean isWhole(long[] sourceShape, long[] targetShape, long[] extent,
                                   int dimension) {
        return extent[dimension] == sourceShape[dimension]
                && extent[dimension] == targetShape[dimension];
    }
}
