package org.quire.format.sion;

import java.util.Arrays;

/**
 * One task of a SION file set: who wrote it, where its chunks are and how full each one is.
 *
 * @param index            0-based index of the task in the whole set (global order of the mapping;
 *                         the local rank for a single file)
 * @param globalRank       the global rank stored in META1 (serial writers store what the caller passed)
 * @param fileNumber       0-based index of the physical file holding the task
 * @param localRank        index of the task within that physical file
 * @param chunkCapacity    capacity of each of the task's chunks in bytes
 * @param firstChunkOffset absolute offset of chunk 0 in the physical file
 * @param globalSkip       distance from one chunk of the task to the next
 * @param bytesPerChunk    bytes stored in each chunk the task used (at least one entry)
 */
public record SionTask(int index, long globalRank, int fileNumber, int localRank, long chunkCapacity,
                       long firstChunkOffset, long globalSkip, long[] bytesPerChunk) {

    public SionTask {
        bytesPerChunk = bytesPerChunk.clone();
    }

    @Override
    public long[] bytesPerChunk() {
        return bytesPerChunk.clone();
    }

    public int chunkCount() {
        return bytesPerChunk.length;
    }

    /** Bytes stored in {@code chunk}. */
    public long bytesInChunk(int chunk) {
        return bytesPerChunk[chunk];
    }

    /** Length of the task's logical stream: all chunks concatenated. */
    public long totalBytes() {
        return Arrays.stream(bytesPerChunk).sum();
    }

    /** Absolute offset of {@code chunk} in the physical file. */
    public long chunkOffset(int chunk) {
        return firstChunkOffset + chunk * globalSkip;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SionTask task && index == task.index && globalRank == task.globalRank
                && fileNumber == task.fileNumber && localRank == task.localRank && chunkCapacity == task.chunkCapacity
                && firstChunkOffset == task.firstChunkOffset && globalSkip == task.globalSkip
                && Arrays.equals(bytesPerChunk, task.bytesPerChunk);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(firstChunkOffset) + Arrays.hashCode(bytesPerChunk);
    }

    @Override
    public String toString() {
        return "SionTask[index=" + index + ", globalRank=" + globalRank + ", fileNumber=" + fileNumber
                + ", localRank=" + localRank + ", chunkCapacity=" + chunkCapacity + ", firstChunkOffset="
                + firstChunkOffset + ", globalSkip=" + globalSkip + ", bytesPerChunk="
                + Arrays.toString(bytesPerChunk) + "]";
    }
}
