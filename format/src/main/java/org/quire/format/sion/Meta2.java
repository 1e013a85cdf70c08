package org.quire.format.sion;

import java.util.Arrays;

/**
 * META2 as stored (see {@link Meta2Layout}), indexed by local task.
 *
 * @param chunkCounts   chunks used by each task
 * @param bytesPerChunk {@code bytesPerChunk[task][k]}: bytes task wrote in its chunk k, for
 *                      k &lt; maxChunks (entries at and beyond {@code chunkCounts[task]} are unused)
 */
public record Meta2(long[] chunkCounts, long[][] bytesPerChunk) {

    public Meta2 {
        chunkCounts = chunkCounts.clone();
        bytesPerChunk = deepCopy(bytesPerChunk);
    }

    @Override
    public long[] chunkCounts() {
        return chunkCounts.clone();
    }

    @Override
    public long[][] bytesPerChunk() {
        return deepCopy(bytesPerChunk);
    }

    public long chunkCount(int task) {
        return chunkCounts[task];
    }

    /** Bytes {@code task} stored in {@code chunk} (0 for chunks it did not use). */
    public long bytesInChunk(int task, int chunk) {
        return bytesPerChunk[task][chunk];
    }

    /** The fill levels of the chunks {@code task} used (its first {@code chunkCount(task)} entries). */
    public long[] usedBytesPerChunk(int task) {
        return Arrays.copyOf(bytesPerChunk[task], (int) chunkCounts[task]);
    }

    private static long[][] deepCopy(long[][] rows) {
        long[][] copy = new long[rows.length][];
        for (int row = 0; row < rows.length; row++) {
            copy[row] = rows[row].clone();
        }
        return copy;
    }
}
