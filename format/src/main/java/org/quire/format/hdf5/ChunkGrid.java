package org.quire.format.hdf5;

/**
 * The chunk geometry of a dataset: chunk shape, maximum shape, and the linear chunk numbering
 * libhdf5 uses for its array indexes (H5Dfarray.c, H5Dearray.c): row-major over the number of
 * chunks each dimension can ever hold, except that an unlimited dimension is moved to the front
 * and varies slowest.
 */
final class ChunkGrid {

    private final long[] chunk;
    private final long[] maxChunks;
    private final int unlimitedDimension;
    /** Row-major strides over the dimensions in index order (unlimited first). */
    private final long[] strides;
    private final int[] order;

    /**
     * @throws ArithmeticException the number of chunks does not fit in a long
     */
    ChunkGrid(long[] chunkShape, long[] maxShape) {
        int rank = chunkShape.length;
        this.chunk = chunkShape.clone();
        this.maxChunks = new long[rank];
        int unlimited = -1;
        for (int d = 0; d < rank; d++) {
            if (maxShape[d] == DatasetSpec.UNLIMITED) {
                unlimited = d;
                maxChunks[d] = Long.MAX_VALUE;
            } else {
                maxChunks[d] = Shapes.ceilDiv(maxShape[d], chunkShape[d]);
            }
        }
        this.unlimitedDimension = unlimited;
        this.order = new int[rank];
        int next = 0;
        if (unlimited >= 0) {
            order[next++] = unlimited;
        }
        for (int d = 0; d < rank; d++) {
            if (d != unlimited) {
                order[next++] = d;
            }
        }
        this.strides = new long[rank];
        long stride = 1;
        for (int i = rank - 1; i >= 0; i--) {
            strides[i] = stride;
            if (i > 0) {
                stride = Math.multiplyExact(stride, maxChunks[order[i]]);
            }
        }
    }

    int rank() {
        return chunk.length;
    }

    long chunkSize(int dimension) {
        return chunk[dimension];
    }

    long[] chunkShape() {
        return chunk.clone();
    }

    /** The dimension that may grow without bound, or -1. */
    int unlimitedDimension() {
        return unlimitedDimension;
    }

    /** Number of chunks of a dataset at its maximum shape; only when no dimension is unlimited. */
    long maxChunkCount() {
        long count = 1;
        for (long chunks : maxChunks) {
            count = Math.multiplyExact(count, chunks);
        }
        return count;
    }

    /** The linear index of the chunk at chunk coordinates {@code scaled}. */
    long linearIndex(long[] scaled) {
        long index = 0;
        for (int i = 0; i < order.length; i++) {
            index += scaled[order[i]] * strides[i];
        }
        return index;
    }

    /** The chunk coordinates of the chunk numbered {@code linear}: the inverse of {@link #linearIndex}. */
    long[] scaledCoordinates(long linear) {
        long[] scaled = new long[order.length];
        long rest = linear;
        for (int i = 0; i < order.length; i++) {
            scaled[order[i]] = rest / strides[i];
            rest %= strides[i];
        }
        return scaled;
    }
}
