package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.quire.format.Collectives;
import org.quire.format.FormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * One rank's read access to a SION file set opened collectively. Rank 0 reads and validates all
 * metadata and hands each rank its tasks; afterwards each rank reads on its own storages.
 *
 * <ul>
 *   <li>{@link #openOwnTask}: rank r reads task r, as {@code sion_paropen_mpi(..., "r", ...)};
 *       the group must have exactly as many ranks as the set has tasks.</li>
 *   <li>{@link #openMapped}: M ranks read a set written by N tasks, each getting a contiguous
 *       block of N/M tasks (remainder to the last rank), as
 *       {@code sion_paropen_mapped_mpi} with {@code nlocaltasks = -1}: how a job restarts on a
 *       different number of ranks (reference section 2.11).</li>
 * </ul>
 * A restart that needs each new rank to get its own range of the old data, not whole old tasks,
 * reads with {@link SionRepartitionedReader}.
 *
 * Close is local (no communication).
 */
public final class SionParallelReader implements Closeable {

    private final Path name;
    private final TaskHandout handout;
    private final Map<Integer, Storage> storagesByFile;

    private SionParallelReader(Path name, TaskHandout handout, Map<Integer, Storage> storagesByFile) {
        this.name = name;
        this.handout = handout;
        this.storagesByFile = storagesByFile;
    }

    /** Rank r reads task r; fails on every rank unless the set has exactly {@code size()} tasks. */
    public static SionParallelReader openOwnTask(Path name, Collectives collectives) throws IOException {
        return open(name, collectives, true, FileStorage.OPENER);
    }

    /** {@link #openOwnTask(Path, Collectives)} through {@code opener}. */
    public static SionParallelReader openOwnTask(Path name, Collectives collectives, StorageOpener opener)
            throws IOException {
        return open(name, collectives, true, opener);
    }

    /** Each rank reads a contiguous block of the set's tasks (N/M each, remainder to the last rank). */
    public static SionParallelReader openMapped(Path name, Collectives collectives) throws IOException {
        return open(name, collectives, false, FileStorage.OPENER);
    }

    /** {@link #openMapped(Path, Collectives)} through {@code opener}. */
    public static SionParallelReader openMapped(Path name, Collectives collectives, StorageOpener opener)
            throws IOException {
        return open(name, collectives, false, opener);
    }

    private static SionParallelReader open(Path name, Collectives collectives, boolean ownTask, StorageOpener opener)
            throws IOException {
        TaskHandout handout = TaskHandout.decode(RootVerdict.decide(collectives, "opening the SION file " + name,
                () -> {
                    try (SionFile sion = SionFile.open(name, opener)) {
                        return handouts(name, sion, collectives.size(), ownTask);
                    }
                }));
        return new SionParallelReader(name, handout, openPhysicalFiles(name, collectives, handout.tasks(), opener));
    }

    /**
     * Collectively opens, on each rank, the physical files holding {@code tasks} (this rank's):
     * all ranks open theirs or none does, and a rank that cannot open its file fails every rank
     * with its exception.
     *
     * @return the storages by file number
     */
    static Map<Integer, Storage> openPhysicalFiles(Path name, Collectives collectives, List<SionTask> tasks,
                                                   StorageOpener opener) throws IOException {
        Map<Integer, Storage> storages = new HashMap<>();
        Throwable failure = null;
        try {
            for (SionTask task : tasks) {
                if (!storages.containsKey(task.fileNumber())) {
                    storages.put(task.fileNumber(),
                            opener.open(SionFileNames.physicalFile(name, task.fileNumber()), OpenMode.READ));
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        try {
            CollectiveOutcome.agree(collectives, failure, "opening the SION file " + name);
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(storages.values(), e);
            throw e;
        }
        return storages;
    }

    private static byte[][] handouts(Path name, SionFile sion, int ranks, boolean ownTask) throws FormatException {
        if (ownTask && sion.taskCount() != ranks) {
            throw new FormatException(name, "was written by " + sion.taskCount() + " tasks and cannot be read task-per-rank"
                    + " by " + ranks + " ranks; open it mapped (SionParallelReader.openMapped) to restart on a"
                    + " different number of ranks");
        }
        ContiguousPartition tasksToRanks = new ContiguousPartition(sion.taskCount(), ranks);
        EndiannessWord endianness = sion.physicalFiles().get(0).meta1().fixedPart().endianness();
        byte[][] handouts = new byte[ranks][];
        for (int rank = 0; rank < ranks; rank++) {
            int first = tasksToRanks.first(rank);
            List<SionTask> tasks = sion.tasks().subList(first, first + tasksToRanks.count(rank));
            handouts[rank] = new TaskHandout(sion.physicalFiles().size(), sion.keyValueMode(), endianness, tasks)
                    .encode();
        }
        return handouts;
    }

    /** The tasks this rank reads, in global order. */
    public List<SionTask> tasks() {
        return handout.tasks();
    }

    public int fileCount() {
        return handout.fileCount();
    }

    public KeyValueMode keyValueMode() {
        return handout.keyValueMode();
    }

    public ByteOrder userDataOrder() {
        return handout.endianness().userDataOrder();
    }

    /** A seekable view of one of this rank's tasks. */
    public TaskStreamChannel openTaskStream(SionTask task) {
        if (!handout.tasks().contains(task)) {
            throw new IllegalArgumentException("task " + task.index() + " is not read by this rank");
        }
        return new TaskStreamChannel(storagesByFile.get(task.fileNumber()), task);
    }

    public byte[] readFully(SionTask task) throws IOException {
        return TaskStreams.readFully(openTaskStream(task));
    }

    public List<KeyValueRecord> keyValueRecords(SionTask task) throws IOException {
        TaskStreams.requireKeyValueMode(name, keyValueMode());
        return KeyValueScanner.scan(SionFileNames.physicalFile(name, task.fileNumber()), openTaskStream(task),
                handout.metadataOrder());
    }

    public byte[] readKey(SionTask task, long key) throws IOException {
        return TaskStreams.readKey(openTaskStream(task), keyValueRecords(task), key);
    }

    @Override
    public void close() throws IOException {
        Closing.closeAll(storagesByFile.values());
    }
}
