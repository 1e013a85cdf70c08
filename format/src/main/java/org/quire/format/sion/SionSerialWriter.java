package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.quire.format.storage.NewFiles;
import org.quire.format.storage.Storage;

/**
 * Writes one physical SION file for several tasks from one thread, the way SIONlib's serial
 * writer ({@code sion_open(name, "w")}) does: META1's head at create, the caller switches between
 * tasks with {@link #selectTask(int)} and appends, and {@link #close()} writes META2, META1's
 * tail and the serial trailer ({@code mapping_size = 0}). The file stores filenumber 1 and
 * nfiles 1, and the name as passed as its prefix.
 *
 * <pre>{@code
 * try (SionSerialWriter writer = SionSerialWriter.create(Path.of("out.sion"),
 *         new long[] {1000, 5000}, new long[] {0, 1}, 4096, SionWriteOptions.defaults())) {
 *     writer.selectTask(1);
 *     writer.write(ByteBuffer.wrap(bytes));
 * }
 * }</pre>
 */
public final class SionSerialWriter implements Closeable {

    private final Storage storage;
    private final ChunkGeometry geometry;
    private final SionWriteOptions options;
    private final TaskChunkWriter[] tasks;
    private int currentTask;
    private boolean closed;

    private SionSerialWriter(Storage storage, ChunkGeometry geometry, SionWriteOptions options) {
        this.storage = storage;
        this.geometry = geometry;
        this.options = options;
        this.tasks = new TaskChunkWriter[geometry.taskCount()];
        for (int task = 0; task < tasks.length; task++) {
            tasks[task] = new TaskChunkWriter(storage, task, geometry.taskStart(task),
                    geometry.chunkCapacity(task), geometry.globalSkip(), options.keyValueMode(),
                    options.metadataOrder(), TaskChunkWriter.FinishedChunks.NONE);
        }
    }

    /**
     * Creates {@code file} for {@code requestedChunkSizes.length} tasks; an existing one is replaced or
     * refused as {@link SionWriteOptions#createMode()} says, and one a writer has open is never touched.
     *
     * @param requestedChunkSizes per task; stored capacity = roundup(requested, fsBlockSize), 0 stays 0
     * @param globalRanks         stored as is in META1, one per task
     * @param fsBlockSize         alignment unit, at least 1
     */
    public static SionSerialWriter create(Path file, long[] requestedChunkSizes, long[] globalRanks, int fsBlockSize,
                                          SionWriteOptions options) throws IOException {
        int taskCount = requestedChunkSizes.length;
        if (taskCount < 1 || globalRanks.length != taskCount) {
            throw new IllegalArgumentException("need at least one task and one global rank per task, got "
                    + taskCount + " chunk sizes and " + globalRanks.length + " global ranks");
        }
        if (fsBlockSize < 1) {
            throw new IllegalArgumentException("fsBlockSize must be at least 1, got " + fsBlockSize);
        }
        long[] capacities = ChunkGeometry.alignedCapacities(requestedChunkSizes, fsBlockSize);
        ChunkGeometry geometry = ChunkGeometry.fromCapacities(fsBlockSize, capacities);
        Meta1FixedPart fixed = options.meta1FixedPart(fsBlockSize, taskCount, 1, 1, file.toString());
        Storage storage = NewFiles.createLocked(options.storage(), file, options.createMode());
        try {
            storage.write(Meta1Layout.encodeHead(fixed, globalRanks, capacities), 0);
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(List.of(storage), e);
            throw e;
        }
        return new SionSerialWriter(storage, geometry, options);
    }

    /** Makes {@code task} the target of the following writes; its chunk position is kept. */
    public void selectTask(int task) {
        ensureOpen();
        if (task < 0 || task >= tasks.length) {
            throw new IndexOutOfBoundsException("task " + task + " of " + tasks.length);
        }
        currentTask = task;
    }

    public int currentTask() {
        return currentTask;
    }

    /** Capacity of each chunk of {@code task} (the aligned requested size). */
    public long chunkCapacity(int task) {
        return geometry.chunkCapacity(task);
    }

    /** Appends one record to the current task (see {@link TaskChunkWriter} for chunk boundaries). */
    public void write(ByteBuffer data) throws IOException {
        ensureOpen();
        tasks[currentTask].write(data);
    }

    public void write(byte[] data) throws IOException {
        write(ByteBuffer.wrap(data));
    }

    /** Appends a key-value record to the current task (file created with {@link KeyValueMode#INLINE}). */
    public void writeKeyValue(long key, ByteBuffer data) throws IOException {
        ensureOpen();
        tasks[currentTask].writeKeyValue(key, data);
    }

    /** {@link SionParallelWriter#ensureFreeSpace(long)} for the current task. */
    public void ensureFreeSpace(long bytes) throws IOException {
        ensureOpen();
        tasks[currentTask].ensureFreeSpace(bytes);
    }

    /** Writes META2, the serial trailer and META1's tail, then (by default) fsyncs and closes. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (storage) {
            long[][] bytesPerChunk = new long[tasks.length][];
            for (int task = 0; task < tasks.length; task++) {
                bytesPerChunk[task] = tasks[task].bytesPerChunk();
            }
            ClosingWrites.of(geometry, bytesPerChunk, options.metadataOrder(),
                    MappingLayout.encodeSerialTrailer(options.metadataOrder()))
                    .writeTo(storage, options.fsyncOnClose());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the SION writer is closed");
        }
    }
}
