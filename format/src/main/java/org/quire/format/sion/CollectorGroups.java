package org.quire.format.sion;

/**
 * SIONlib's collective-mode layout of one physical file (reference sections 2.2 and 3.2, as
 * {@code _sion_calculate_startpointers_collective} computes it): tasks are grouped in task order,
 * each group's first task is its collector, and the capacities are the requested chunk sizes
 * unaligned, except that the last task of each group is padded so that the group ends on a block
 * boundary. Start pointers and globalskip are then the usual prefix sums ({@link ChunkGeometry}).
 *
 * <p>The number of collectors is {@code ceil(tasks / tasksPerCollector)}, at most one per block of
 * the total request; each group takes tasks while its requests stay within
 * {@code roundup(total / collectors, fsBlockSize)} bytes (a group always takes at least one task).
 *
 * @param collectors task index of the collector of each task
 * @param capacities chunk capacity of each task, as stored in META1
 */
record CollectorGroups(int[] collectors, long[] capacities) {

    CollectorGroups {
        collectors = collectors.clone();
        capacities = capacities.clone();
    }

    @Override
    public int[] collectors() {
        return collectors.clone();
    }

    @Override
    public long[] capacities() {
        return capacities.clone();
    }

    static CollectorGroups of(long[] requestedChunkSizes, int fsBlockSize, int tasksPerCollector) {
        if (tasksPerCollector < 1) {
            throw new IllegalArgumentException("tasks per collector must be at least 1, got " + tasksPerCollector);
        }
        int tasks = requestedChunkSizes.length;
        long total = 0;
        for (int task = 0; task < tasks; task++) {
            if (requestedChunkSizes[task] < 0) {
                throw new IllegalArgumentException("chunk size of task " + task + " is negative: "
                        + requestedChunkSizes[task]);
            }
            total = Math.addExact(total, requestedChunkSizes[task]);
        }
        if (total == 0) {
            // SIONlib divides by the collector count, which is 0 here.
            throw new IllegalArgumentException("collective writes need a chunk size above 0 on some task");
        }
        long collectorCount = Math.min((tasks + tasksPerCollector - 1) / tasksPerCollector,
                (total + fsBlockSize - 1) / fsBlockSize);
        long bytesPerCollector = ChunkGeometry.alignUp(total / collectorCount, fsBlockSize);

        int[] collectors = new int[tasks];
        long[] capacities = requestedChunkSizes.clone();
        int collector = 0;
        long groupBytes = capacities[0];
        for (int task = 1; task <= tasks; task++) {
            if (task < tasks && groupBytes + capacities[task] <= bytesPerCollector) {
                groupBytes += capacities[task];
                collectors[task] = collector;
                continue;
            }
            capacities[task - 1] += ChunkGeometry.alignUp(groupBytes, fsBlockSize) - groupBytes;
            if (task < tasks) {
                collector = task;
                collectors[task] = task;
                groupBytes = capacities[task];
            }
        }
        return new CollectorGroups(collectors, capacities);
    }
}
