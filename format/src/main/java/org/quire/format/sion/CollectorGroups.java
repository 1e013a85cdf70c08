package org.quire.format.sion;

import java.util.List;

/**
 * SIONlib's collective-mode layout of one physical file (reference sections 2.2 and 3.2, as
 * {@code _sion_calculate_startpointers_collective} computes it): tasks are grouped in task order,
 * each group's first task is its collector, and the capacities are the requested chunk sizes
 * unaligned, except that the last task of each group is padded so that the group ends on a block
 * boundary. Start pointers and globalskip are then the usual prefix sums ({@link ChunkGeometry}).
 *
 * <p>The number of collectors is {@code ceil(tasks / tasksPerCollector)}, at most one per block of
 * the total request. With {@link SionWriteOptions#COLLECTORS_BY_SIONLIB_RULE} it is SIONlib's own choice
 * ({@code _sion_calculate_num_collector} with collsize -1): one per block of the total request, at most one
 * per task, then reduced by the first row of {@link #SIONLIB_REDUCTIONS} that applies. Each group takes
 * tasks while its requests stay within {@code roundup(total / collectors, fsBlockSize)} bytes (a group
 * always takes at least one task), so there can be more groups than collectors counted.
 *
 * @param collectors task index of the collector of each task
 * @param capacities chunk capacity of each task, as stored in META1
 */
record CollectorGroups(int[] collectors, long[] capacities) {

    /**
     * SIONlib 1.7.6's reduction of its own collector count: the first row whose task count is reached and whose
     * collector count is exceeded sets the count to that row's. So the count is not just capped by the row of the
     * task count: 32 tasks with 6 collectors pass the 32-task row (6 is not above 8) and meet the 16-task row,
     * giving 4 (SionRecreateVectorsTest's coll_heuristic_32tasks.sion); 600 tasks with 30 give 16, not 30.
     */
    private static final List<Reduction> SIONLIB_REDUCTIONS = List.of(new Reduction(512, 32), new Reduction(256, 16),
            new Reduction(128, 8), new Reduction(64, 8), new Reduction(32, 8), new Reduction(16, 4));

    /** From {@code atLeastTasks} tasks on, a collector count above {@code collectors} becomes {@code collectors}. */
    private record Reduction(int atLeastTasks, long collectors) {
    }

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

    /**
     * @param tasksPerCollector SIONlib's collsize, at least 1, or {@link SionWriteOptions#COLLECTORS_BY_SIONLIB_RULE}
     */
    static CollectorGroups of(long[] requestedChunkSizes, int fsBlockSize, int tasksPerCollector) {
        if (tasksPerCollector < 1 && tasksPerCollector != SionWriteOptions.COLLECTORS_BY_SIONLIB_RULE) {
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
        long collectorCount = collectorCount(tasks, (total + fsBlockSize - 1) / fsBlockSize, tasksPerCollector);
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

    /** How many collectors a file of {@code tasks} gets when its requests fill {@code blocks} blocks. */
    private static long collectorCount(int tasks, long blocks, int tasksPerCollector) {
        if (tasksPerCollector != SionWriteOptions.COLLECTORS_BY_SIONLIB_RULE) {
            return Math.min((tasks + tasksPerCollector - 1) / tasksPerCollector, blocks);
        }
        long count = Math.min(blocks, tasks);
        for (Reduction reduction : SIONLIB_REDUCTIONS) {
            if (tasks >= reduction.atLeastTasks() && count > reduction.collectors()) {
                return reduction.collectors();
            }
        }
        return count;
    }
}
