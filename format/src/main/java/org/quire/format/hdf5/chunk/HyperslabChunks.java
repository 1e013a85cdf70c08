package org.quire.format.hdf5.chunk;

import java.io.IOException;

/**
 * The chunks a hyperslab ({@code start} and {@code count} per dimension) overlaps, each with the
 * box it shares with the selection, in chunk and in selection coordinates: what a read or write
 * copies between a chunk and the selection's row-major array ({@link BoxRuns}).
 */
public final class HyperslabChunks {

    private HyperslabChunks() {
    }

    @FunctionalInterface
    public interface Visitor {
        /**
         * @param scaled      chunk coordinates (chunk index per dimension)
         * @param overlap     size of the part of the chunk inside the selection
         * @param within      where that part starts inside the chunk
         * @param inSelection where that part starts inside the selection
         */
        void visit(long[] scaled, long[] overlap, long[] within, long[] inSelection)
                throws IOException;
    }

    /** Visits every chunk of {@code grid} the selection overlaps, in row-major chunk order. */
    public static void forEach(ChunkGrid grid, long[] start, long[] count, Visitor visitor)
            throws IOException {
        int rank = grid.rank();
        long[] first = new long[rank];
        long[] last = new long[rank];
        for (int d = 0; d < rank; d++) {
            if (count[d] == 0) {
                return;
            }
            first[d] = start[d] / grid.chunkSize(d);
            last[d] = (start[d] + count[d] - 1) / grid.chunkSize(d);
        }
        long[] scaled = first.clone();
        while (true) {
            long[] overlap = new long[rank];
            long[] within = new long[rank];
            long[] inSelection = new long[rank];
            for (int d = 0; d < rank; d++) {
                long origin = scaled[d] * grid.chunkSize(d);
                long from = Math.max(start[d], origin);
                long to = Math.min(start[d] + count[d], origin + grid.chunkSize(d));
                overlap[d] = to - from;
                within[d] = from - origin;
                inSelection[d] = from - start[d];
            }
            visitor.visit(scaled.clone(), overlap, within, inSelection);
            int d = rank - 1;
            while (d >= 0 && ++scaled[d] > last[d]) {
                scaled[d] = first[d];
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
