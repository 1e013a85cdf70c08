package org.quire.format.sion;

/**
 * META1 as stored: the fixed part, the per-task arrays and the tail written at close
 * (see {@link Meta1Layout}). Arrays are indexed by local task (0..taskCount-1 in this file).
 *
 * @param fixedPart       identity, version, counts and prefix
 * @param globalRanks     the global rank stored for each local task
 * @param chunkCapacities capacity of each task's chunks in bytes (already aligned by the writer)
 * @param maxChunks       largest number of chunks any task of this file used
 * @param startOfMeta2    absolute offset of META2 ({@code start_of_varheader})
 */
public record Meta1(Meta1FixedPart fixedPart, long[] globalRanks, long[] chunkCapacities,
                    int maxChunks, long startOfMeta2) {

    public Meta1 {
        globalRanks = globalRanks.clone();
        chunkCapacities = chunkCapacities.clone();
    }

    @Override
    public long[] globalRanks() {
        return globalRanks.clone();
    }

    @Override
    public long[] chunkCapacities() {
        return chunkCapacities.clone();
    }

    public long globalRank(int task) {
        return globalRanks[task];
    }

    /** Size of this META1 in bytes. */
    public long size() {
        return Meta1Layout.size(fixedPart.taskCount());
    }
}
