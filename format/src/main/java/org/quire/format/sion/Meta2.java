package org.quire.format.sion;

/**
 * META2 as stored (see {@link Meta2Layout}), indexed by local task.
 *
 * @param chunkCounts   chunks used by each task
 * @param bytesPerChunk {@code bytesPerChunk[task][k]}: bytes task wrote in its chunk k, for
 *                      k &lt; maxChunks (entries at and beyond {@code chunkCounts[task]} are unused)
 */
public record Meta2(long[] chunkCounts, long[][] bytesPerChunk) {
}
