package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataspaceMessage;

/**
 * The chunk geometry of a dataset: chunk shape, maximum shape, and the linear chunk numbering
 * libhdf5 uses for its array indexes (H5Dfarray.c, H5Dearray.c, H5Dnone.c): row-major over the
 * number of chunks each dimension can ever hold, except that an unlimited dimension is moved to
 * the front and varies slowest. With more than one unlimited dimension there is no such
 * numbering (libhdf5 then keys chunks by their coordinates in a version-2 B-tree).
 */
public final class ChunkGrid {

    private final long[] chunk;
    private final long[] maxChunks;
    private final int unlimitedDimensions;
    /** Row-major strides over the dimensions in index order (unlimited first); null if none. */
    private final long[] strides;
    private final int[] order;

    /**
     * @throws ArithmeticException the number of chunks does not fit in a long
     */
    public ChunkGrid(long[] chunkShape, long[] maxShape) {
        int rank = chunkShape.length;
        this.chunk = chunkShape.clone();
        this.maxChunks = new long[rank];
        int unlimited = -1;
        int unlimitedCount = 0;
        for (int d = 0; d < rank; d++) {
            if (maxShape[d] == DataspaceMessage.UNLIMITED) {
                unlimited = d;
                unlimitedCount++;
                maxChunks[d] = Long.MAX_VALUE;
            } else if (maxShape[d] < 0) {
                // DataspaceMessage.decode and the dataset specification refuse these; a caller passed one.
                throw new IllegalArgumentException("maximum size "
                        + Long.toUnsignedString(maxShape[d]) + " of dimension " + d
                        + " is neither unlimited nor below 2^63");
            } else {
                maxChunks[d] = Shapes.ceilDiv(maxShape[d], chunkShape[d]);
            }
        }
        this.unlimitedDimensions = unlimitedCount;
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
        if (unlimitedCount > 1) {
            this.strides = null;
            return;
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

    public int rank() {
        return chunk.length;
    }

    public long chunkSize(int dimension) {
        return chunk[dimension];
    }

    public long[] chunkShape() {
        return chunk.clone();
    }

    /** Number of dimensions that may grow without bound. */
    public int unlimitedDimensions() {
        return unlimitedDimensions;
    }

    /** Number of chunks of a dataset at its maximum shape; only when no dimension is unlimited. */
    public long maxChunkCount() {
        long count = 1;
        for (long chunks : maxChunks) {
            count = Math.multiplyExact(count, chunks);
        }
        return count;
    }

    /** Whether chunk coordinates {@code scaled} lie inside the dataset's maximum extent. */
    public boolean contains(long[] scaled) {
        for (int d = 0; d < maxChunks.length; d++) {
            if (scaled[d] < 0 || scaled[d] >= maxChunks[d]) {
                return false;
            }
        }
        return scaled.length == maxChunks.length;
    }

    /** Whether chunks have a {@link #linearIndex} (at most one dimension is unlimited). */
    public boolean hasLinearIndex() {
        return strides != null;
    }

    /**
     * The linear index of the chunk at chunk coordinates {@code scaled}.
     *
     * @throws IllegalStateException more than one dimension is unlimited
     */
    public long linearIndex(long[] scaled) {
        requireLinearNumbering();
        long index = 0;
        for (int i = 0; i < order.length; i++) {
            index += scaled[order[i]] * strides[i];
        }
        return index;
    }

    /**
     * The chunk coordinates of the chunk numbered {@code linear}: the inverse of
     * {@link #linearIndex}.
     *
     * @throws IllegalStateException more than one dimension is unlimited
     */
    public long[] scaledCoordinates(long linear) {
        requireLinearNumbering();
        long[] scaled = new long[order.length];
        long rest = linear;
        for (int i = 0; i < order.length; i++) {
            scaled[order[i]] = rest / strides[i];
            rest %= strides[i];
        }
        return scaled;
    }

    /**
     * Visits the written ones among {@code records}, the records of the chunks numbered
     * {@code firstIndex} onward, with their chunk coordinates: how the array indexes, which
     * store records in linear order, report their stored chunks.
     */
    public void forEachWritten(ChunkRecord[] records, long firstIndex, StoredChunkVisitor visitor)
            throws IOException {
        for (int i = 0; i < records.length; i++) {
            if (records[i].isWritten()) {
                visitor.visit(scaledCoordinates(firstIndex + i), records[i]);
            }
        }
    }

    private void requireLinearNumbering() {
        if (strides == null) {
            throw new IllegalStateException("chunks of a dataset with " + unlimitedDimensions
                    + " unlimited dimensions have no linear index");
        }
    }
}
