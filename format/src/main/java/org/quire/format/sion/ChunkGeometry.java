package org.quire.format.sion;

/**
 * Where the chunks of a physical file lie (reference section 2.2).
 *
 * <pre>
 *  0                 META1             start_of_data = roundup(META1 size, fsblksize)
 *  |=================|......hole.......|
 *  start_of_data --> +--------+-----------+--------+---+   row 0: chunk 0 of every task
 *                    | task 0 |  task 1   | task 2 |...|   task i at start[i], capacity[i] bytes
 *  + globalskip ---> +--------+-----------+--------+---+   row 1: chunk 1 of every task
 *                    | task 0 |  task 1   | task 2 |...|
 *                    +--------+-----------+--------+---+   ... maxchunks rows, then META2
 *
 *  start[i]   = start_of_data + capacity[0] + ... + capacity[i-1]
 *  globalskip = capacity[0] + ... + capacity[n-1]
 *  chunk k of task i: start[i] + k * globalskip
 * </pre>
 *
 * Offsets are prefix sums of the stored capacities, never derived by assuming they are multiples
 * of fsblksize: SIONlib's collective modes store unaligned capacities.
 *
 * @param startOfData     offset of row 0
 * @param chunkCapacities capacity of each task's chunks
 * @param taskStarts      offset of chunk 0 of each task
 * @param globalSkip      distance between two rows
 */
public record ChunkGeometry(long startOfData, long[] chunkCapacities, long[] taskStarts, long globalSkip) {

    public ChunkGeometry {
        chunkCapacities = chunkCapacities.clone();
        taskStarts = taskStarts.clone();
    }

    @Override
    public long[] chunkCapacities() {
        return chunkCapacities.clone();
    }

    @Override
    public long[] taskStarts() {
        return taskStarts.clone();
    }

    public long chunkCapacity(int task) {
        return chunkCapacities[task];
    }

    /** Offset of chunk 0 of {@code task}. */
    public long taskStart(int task) {
        return taskStarts[task];
    }

    /**
     * Lays out tasks of the given capacities behind META1. Throws {@link ArithmeticException}
     * on overflow; readers validate capacities before calling this.
     */
    public static ChunkGeometry fromCapacities(int fsBlockSize, long[] chunkCapacities) {
        long startOfData = alignUp(Meta1Layout.size(chunkCapacities.length), fsBlockSize);
        long[] taskStarts = new long[chunkCapacities.length];
        long next = startOfData;
        for (int task = 0; task < chunkCapacities.length; task++) {
            taskStarts[task] = next;
            next = Math.addExact(next, chunkCapacities[task]);
        }
        return new ChunkGeometry(startOfData, chunkCapacities, taskStarts, next - startOfData);
    }

    /** Capacities SIONlib's standard mode gives requested chunk sizes: aligned up, 0 stays 0. */
    public static long[] alignedCapacities(long[] requestedChunkSizes, int fsBlockSize) {
        long[] capacities = new long[requestedChunkSizes.length];
        for (int task = 0; task < capacities.length; task++) {
            if (requestedChunkSizes[task] < 0) {
                throw new IllegalArgumentException("chunk size of task " + task + " is negative: "
                        + requestedChunkSizes[task]);
            }
            capacities[task] = alignUp(requestedChunkSizes[task], fsBlockSize);
        }
        return capacities;
    }

    /** Smallest multiple of {@code blockSize} that is {@code >= value}. */
    public static long alignUp(long value, long blockSize) {
        long remainder = value % blockSize;
        return remainder == 0 ? value : Math.addExact(value, blockSize - remainder);
    }

    public int taskCount() {
        return chunkCapacities.length;
    }

    /** Absolute offset of chunk {@code chunk} of {@code task}. */
    public long chunkOffset(int task, long chunk) {
        return taskStarts[task] + chunk * globalSkip;
    }

    /** Where META2 starts when {@code maxChunks} rows were used. */
    public long startOfMeta2(long maxChunks) {
        return startOfData + maxChunks * globalSkip;
    }
}
