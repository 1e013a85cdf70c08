package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.quire.format.storage.Storage;

/**
 * Appends to one task's logical stream, moving from chunk k to chunk k+1 at
 * {@code firstChunkOffset + (k+1) * globalSkip} without any communication (reference section 2.2),
 * and remembers each chunk's fill level for META2.
 *
 * <p>Plain writes follow {@code sion_fwrite}: a write that does not fit the rest of the current
 * chunk starts the next chunk and is never split. Unlike SIONlib, a write larger than the
 * capacity does not fail: it fills the current chunk and as many following chunks as it needs,
 * each to capacity. Key-value records are always split this way, as SIONlib does. Both kinds of
 * file are readable by SIONlib because META2 stores the fill level of every chunk.
 * {@link #ensureFreeSpace(long)} is {@code sion_ensure_free_space}: it lets a writer keep a
 * group of writes (or a key-value record with its header) whole in one chunk.
 *
 * <p>When the task leaves a chunk for the next one, the chunk's final fill level goes to a
 * {@link FinishedChunks} (the recovery journal of a parallel writer, or nothing).
 */
final class TaskChunkWriter {

    /** Told the final fill level of every chunk the task leaves for its next chunk. */
    @FunctionalInterface
    interface FinishedChunks {
        FinishedChunks NONE = (chunk, bytes) -> { };

        void chunkFinished(long chunk, long bytes) throws IOException;
    }

    private final Storage storage;
    private final int taskIndex;
    private final long firstChunkOffset;
    private final long capacity;
    private final long globalSkip;
    private final KeyValueMode keyValueMode;
    private final ByteOrder metadataOrder;
    private final FinishedChunks finishedChunks;
    private long[] bytesPerChunk = new long[4];
    private int currentChunk;

    TaskChunkWriter(Storage storage, int taskIndex, long firstChunkOffset, long capacity, long globalSkip,
                    KeyValueMode keyValueMode, ByteOrder metadataOrder, FinishedChunks finishedChunks) {
        this.storage = storage;
        this.taskIndex = taskIndex;
        this.firstChunkOffset = firstChunkOffset;
        this.capacity = capacity;
        this.globalSkip = globalSkip;
        this.keyValueMode = keyValueMode;
        this.metadataOrder = metadataOrder;
        this.finishedChunks = finishedChunks;
    }

    /** Appends one record of plain data (see the class comment for chunk boundaries). */
    void write(ByteBuffer data) throws IOException {
        requireMode(KeyValueMode.NONE, "plain writes");
        long length = data.remaining();
        if (length == 0) {
            return;
        }
        requireCapacity();
        if (length <= capacity - bytesPerChunk[currentChunk]) {
            append(data);
        } else if (length <= capacity) {
            startNextChunk();
            append(data);
        } else {
            appendAcrossChunks(data);
        }
    }

    /**
     * Starts the next chunk when {@code bytes} would not fit the rest of the current one, as SIONlib's
     * {@code sion_ensure_free_space} does (reference section 3.1): the rest of the chunk stays unused, and
     * an empty chunk is never left behind. More than the capacity is refused, as SIONlib refuses it.
     */
    void ensureFreeSpace(long bytes) throws IOException {
        if (bytes < 0 || bytes > capacity) {
            throw new IllegalArgumentException("task " + taskIndex + ": cannot ensure " + bytes
                    + " bytes of free space in one chunk: its chunk capacity is " + capacity + " bytes");
        }
        if (bytesPerChunk[currentChunk] + bytes > capacity) {
            startNextChunk();
        }
    }

    /**
     * Takes the place of a plain write of {@code length} bytes that another rank will write: moves to the next
     * chunk when they would not fit the rest of this one ({@link #ensureFreeSpace(long)}, so more than the capacity
     * is refused), counts them, and returns the absolute offset they go to. SIONlib's {@code sion_coll_fwrite}.
     */
    long reserve(long length) throws IOException {
        requireMode(KeyValueMode.NONE, "collective writes");
        ensureFreeSpace(length);
        long offset = currentOffset();
        bytesPerChunk[currentChunk] += length;
        return offset;
    }

    /** Appends a key-value record: 16-byte header, then the data, split across chunks as needed. */
    void writeKeyValue(long key, ByteBuffer data) throws IOException {
        requireMode(KeyValueMode.INLINE, "key-value writes");
        requireCapacity();
        appendAcrossChunks(KeyValueRecordLayout.encodeHeader(key, data.remaining(), metadataOrder));
        appendAcrossChunks(data);
    }

    /** The fill level of every chunk used so far (at least one entry, possibly 0). */
    long[] bytesPerChunk() {
        return Arrays.copyOf(bytesPerChunk, currentChunk + 1);
    }

    /** Index of the chunk the task writes to now. */
    int currentChunk() {
        return currentChunk;
    }

    /** Bytes the task has in its current chunk. */
    long currentChunkBytes() {
        return bytesPerChunk[currentChunk];
    }

    private void appendAcrossChunks(ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            if (bytesPerChunk[currentChunk] == capacity) {
                startNextChunk();
            }
            int length = (int) Math.min(data.remaining(), capacity - bytesPerChunk[currentChunk]);
            append(data.slice(data.position(), length));
            data.position(data.position() + length);
        }
    }

    private void append(ByteBuffer data) throws IOException {
        int length = data.remaining();
        storage.write(data, currentOffset());
        bytesPerChunk[currentChunk] += length;
    }

    /** Where the task's next byte goes. */
    private long currentOffset() {
        return firstChunkOffset + currentChunk * globalSkip + bytesPerChunk[currentChunk];
    }

    private void startNextChunk() throws IOException {
        finishedChunks.chunkFinished(currentChunk, bytesPerChunk[currentChunk]);
        currentChunk++;
        if (currentChunk == bytesPerChunk.length) {
            bytesPerChunk = Arrays.copyOf(bytesPerChunk, bytesPerChunk.length * 2);
        }
    }

    private void requireCapacity() {
        if (capacity == 0) {
            throw new IllegalStateException("task " + taskIndex + " has chunk capacity 0 and cannot hold data");
        }
    }

    private void requireMode(KeyValueMode expected, String what) {
        if (keyValueMode != expected) {
            throw new IllegalStateException(what + " need key-value mode " + expected + "; the file was opened with "
                    + keyValueMode);
        }
    }
}
