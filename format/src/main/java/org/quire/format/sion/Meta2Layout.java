package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Byte layout of META2, the chunk fill table at {@code start_of_varheader}, written at close
 * (reference section 2.3). {@code n} = tasks of the physical file, {@code m} = maxchunks.
 * Offsets are relative to the start of META2; integers in the writer's byte order.
 *
 * <pre>
 *  offset          size  field
 *  0               8n    int64 chunks[task]          chunks used (&gt;= 1)
 *  8n + 8n*k       8n    int64 bytes[task] of chunk k, for k = 0 .. m-1   (chunk-major rows)
 *  8n(1+m)               end of META2
 * </pre>
 *
 * Entries of chunks a task did not use are 0. This class is the only place that knows these offsets.
 */
public final class Meta2Layout {

    private Meta2Layout() {
    }

    public static long chunkCountOffset(int task) {
        return 8L * task;
    }

    /** Offset of the fill level of {@code task}'s chunk {@code chunk}. */
    public static long bytesInChunkOffset(long taskCount, long chunk, int task) {
        return 8L * taskCount + 8L * taskCount * chunk + 8L * task;
    }

    /** Size of META2; the caller guarantees that the product does not overflow (validated counts). */
    public static long size(long taskCount, long maxChunks) {
        return 8L * taskCount * (1 + maxChunks);
    }

    /**
     * Encodes META2 from each task's fill levels ({@code bytesPerChunk[task]} has one entry per
     * chunk used, at least one); unused entries up to {@code maxChunks} are written as 0.
     */
    public static ByteBuffer encode(long[][] bytesPerChunk, int maxChunks, ByteOrder order) {
        int taskCount = bytesPerChunk.length;
        ByteBuffer meta2 = ByteBuffer.allocate(Math.toIntExact(size(taskCount, maxChunks))).order(order);
        for (int task = 0; task < taskCount; task++) {
            long[] fills = bytesPerChunk[task];
            if (fills.length == 0 || fills.length > maxChunks) {
                throw new IllegalArgumentException("task " + task + " used " + fills.length
                        + " chunks, expected 1.." + maxChunks);
            }
            meta2.putLong((int) chunkCountOffset(task), fills.length);
            for (int chunk = 0; chunk < fills.length; chunk++) {
                meta2.putLong((int) bytesInChunkOffset(taskCount, chunk, task), fills[chunk]);
            }
        }
        return meta2;
    }

    /** Decodes {@link #size(long, long)} bytes read from {@code start_of_varheader}. */
    public static Meta2 decode(ByteBuffer stored, int taskCount, int maxChunks) {
        ByteBuffer in = stored.duplicate().order(stored.order());
        long[] chunkCounts = new long[taskCount];
        long[][] bytesPerChunk = new long[taskCount][maxChunks];
        for (int task = 0; task < taskCount; task++) {
            chunkCounts[task] = in.getLong((int) chunkCountOffset(task));
            for (int chunk = 0; chunk < maxChunks; chunk++) {
                bytesPerChunk[task][chunk] = in.getLong((int) bytesInChunkOffset(taskCount, chunk, task));
            }
        }
        return new Meta2(chunkCounts, bytesPerChunk);
    }
}
