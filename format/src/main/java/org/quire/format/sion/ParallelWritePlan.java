package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rank 0's view of a parallel write: which ranks go to which physical file (contiguous blocks,
 * remainder to the last file), each file's chunk geometry and META1, and at close each file's
 * closing writes including file 0's mapping. Only rank 0 holds one.
 */
final class ParallelWritePlan {

    private final ContiguousPartition ranksToFiles;
    private final ChunkGeometry[] geometries;
    private final Meta1FixedPart[] fixedParts;
    private final SionWriteOptions options;
    private final long journalId;
    /** In collective mode, the rank of each rank's collector; empty otherwise. */
    private final int[] collectorOfRank;

    private ParallelWritePlan(ContiguousPartition ranksToFiles, ChunkGeometry[] geometries,
                              Meta1FixedPart[] fixedParts, SionWriteOptions options, long journalId,
                              int[] collectorOfRank) {
        this.ranksToFiles = ranksToFiles;
        this.collectorOfRank = collectorOfRank;
        this.geometries = geometries;
        this.fixedParts = fixedParts;
        this.options = options;
        this.journalId = journalId;
    }

    /**
     * Plans files for {@code requestedChunkSizes.length} ranks; capacities are the requests
     * aligned to {@code fsBlockSize} (in collective mode, as {@link CollectorGroups} pads them per file),
     * globalranks the ranks, prefix the name passed to open;
     * {@code journalId} identifies this open in the recovery journals.
     */
    static ParallelWritePlan of(String prefix, long[] requestedChunkSizes, int fileCount, int fsBlockSize,
                                SionWriteOptions options, long journalId) {
        int ranks = requestedChunkSizes.length;
        if (fileCount < 1 || fileCount > ranks) {
            throw new IllegalArgumentException("cannot write " + fileCount + " files with " + ranks
                    + " ranks: every file needs at least one task");
        }
        if (fsBlockSize < 1) {
            throw new IllegalArgumentException("fsBlockSize must be at least 1, got " + fsBlockSize);
        }
        ContiguousPartition ranksToFiles = new ContiguousPartition(ranks, fileCount);
        ChunkGeometry[] geometries = new ChunkGeometry[fileCount];
        Meta1FixedPart[] fixedParts = new Meta1FixedPart[fileCount];
        int[] collectorOfRank = new int[options.collective() ? ranks : 0];
        for (int file = 0; file < fileCount; file++) {
            int first = ranksToFiles.first(file);
            int count = ranksToFiles.count(file);
            long[] fileRequests = Arrays.copyOfRange(requestedChunkSizes, first, first + count);
            long[] fileCapacities;
            if (options.collective()) {
                CollectorGroups groups = CollectorGroups.of(fileRequests, fsBlockSize, options.tasksPerCollector());
                fileCapacities = groups.capacities();
                int[] collectors = groups.collectors();
                for (int task = 0; task < count; task++) {
                    collectorOfRank[first + task] = first + collectors[task];
                }
            } else {
                fileCapacities = ChunkGeometry.alignedCapacities(fileRequests, fsBlockSize);
            }
            geometries[file] = ChunkGeometry.fromCapacities(fsBlockSize, fileCapacities);
            fixedParts[file] = options.meta1FixedPart(fsBlockSize, count, fileCount, file, prefix);
        }
        return new ParallelWritePlan(ranksToFiles, geometries, fixedParts, options, journalId, collectorOfRank);
    }

    SionWriteOptions options() {
        return options;
    }

    RankAssignment assignmentFor(int rank) {
        int file = ranksToFiles.partOf(rank);
        int localRank = rank - ranksToFiles.first(file);
        ChunkGeometry geometry = geometries[file];
        byte[] head = new byte[0];
        if (localRank == 0) {
            long[] globalRanks = new long[geometry.taskCount()];
            for (int task = 0; task < globalRanks.length; task++) {
                globalRanks[task] = rank + task;
            }
            head = Meta1Layout.encodeHead(fixedParts[file], globalRanks, geometry.chunkCapacities()).array();
        }
        return new RankAssignment(file, geometry.taskCount(), localRank, geometry.taskStart(localRank),
                geometry.chunkCapacity(localRank), geometry.globalSkip(), fixedParts[file].fsBlockSize(), journalId,
                head, collectorOfRank.length == 0 ? -1 : collectorOfRank[rank],
                Arrays.stream(collectorOfRank).distinct().toArray());
    }

    /** The closing writes of every file, from the fill levels of every rank (indexed by rank). */
    List<ClosingWrites> closingWrites(long[][] bytesPerChunkByRank) {
        List<ClosingWrites> writes = new ArrayList<>();
        for (int file = 0; file < geometries.length; file++) {
            long[][] fileFills = new long[ranksToFiles.count(file)][];
            System.arraycopy(bytesPerChunkByRank, ranksToFiles.first(file), fileFills, 0, fileFills.length);
            // A single file written in parallel has no trailer; file 0 of a set carries the mapping.
            ByteBuffer trailer = file == 0 && geometries.length > 1
                    ? MappingLayout.encode(mapping(bytesPerChunkByRank.length), options.metadataOrder())
                    : ByteBuffer.allocate(0);
            writes.add(ClosingWrites.of(geometries[file], fileFills, options.metadataOrder(), trailer));
        }
        return writes;
    }

    /** The rank that owns the metadata of {@code file} (its local rank 0). */
    int metadataOwner(int file) {
        return ranksToFiles.first(file);
    }

    private List<TaskLocation> mapping(int ranks) {
        List<TaskLocation> mapping = new ArrayList<>(ranks);
        for (int rank = 0; rank < ranks; rank++) {
            int file = ranksToFiles.partOf(rank);
            mapping.add(new TaskLocation(file, rank - ranksToFiles.first(file)));
        }
        return mapping;
    }
}
