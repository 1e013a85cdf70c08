package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.Storage;

/**
 * A task's logical stream as a read-only, seekable channel: its chunks concatenated, each
 * contributing exactly its fill level from META2 (the unused rest of a chunk is skipped).
 * Reads are positional on a shared {@link Storage}, so several streams (and threads) may
 * read the same file at once; closing this view does not close that storage.
 */
public final class TaskStreamChannel implements SeekableByteChannel {

    private final Storage storage;
    private final SionTask task;
    /** streamStart[k] = stream position of the first byte of chunk k; streamStart[chunks] = size. */
    private final long[] streamStart;
    private long position;
    private boolean open = true;

    TaskStreamChannel(Storage storage, SionTask task) {
        this.storage = storage;
        this.task = task;
        this.streamStart = new long[task.chunkCount() + 1];
        for (int chunk = 0; chunk < task.chunkCount(); chunk++) {
            streamStart[chunk + 1] = streamStart[chunk] + task.bytesInChunk(chunk);
        }
    }

    public SionTask task() {
        return task;
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        ensureOpen();
        if (position >= size()) {
            return -1;
        }
        int chunk = chunkAt(position);
        long inChunk = position - streamStart[chunk];
        int length = (int) Math.min(destination.remaining(), streamStart[chunk + 1] - position);
        long fileOffset = task.chunkOffset(chunk) + inChunk;
        ByteBuffer slice = destination.slice(destination.position(), length);
        if (!storage.readFully(slice, fileOffset)) {
            throw new CorruptFileException(storage.path(), fileOffset + slice.position(), "chunk",
                    "data of task " + task.index() + " in chunk " + chunk,
                    task.bytesInChunk(chunk) + " bytes from offset " + task.chunkOffset(chunk),
                    "end of file (the file shrank after its metadata was read)");
        }
        destination.position(destination.position() + length);
        position += length;
        return length;
    }

    /** Reads until {@code destination} is full or the stream ends; returns the bytes read. */
    public int readFully(ByteBuffer destination) throws IOException {
        int total = 0;
        while (destination.hasRemaining()) {
            int read = read(destination);
            if (read < 0) {
                break;
            }
            total += read;
        }
        return total;
    }

    /** Absolute offset in the physical file of the stream byte at {@code streamPosition} (&lt; size). */
    public long fileOffsetOf(long streamPosition) {
        int chunk = chunkAt(streamPosition);
        return task.chunkOffset(chunk) + (streamPosition - streamStart[chunk]);
    }

    /** The chunk holding stream position {@code streamPosition}, skipping chunks of 0 bytes. */
    private int chunkAt(long streamPosition) {
        int index = Arrays.binarySearch(streamStart, streamPosition);
        int chunk = index >= 0 ? index : -index - 2;
        while (chunk < task.chunkCount() - 1 && streamStart[chunk + 1] <= streamPosition) {
            chunk++;
        }
        return chunk;
    }

    @Override
    public int write(ByteBuffer source) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() {
        return position;
    }

    /** Moves to {@code newPosition}; a position at or beyond {@link #size()} reads end of stream. */
    @Override
    public TaskStreamChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() {
        return streamStart[streamStart.length - 1];
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
