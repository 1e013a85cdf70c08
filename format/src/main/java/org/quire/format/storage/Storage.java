package org.quire.format.storage;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The bytes of one file, as the format module sees them: positional reads and writes, size,
 * durability barriers and an advisory lock. Every read and write of the format module (HDF5
 * files, SION containers and their journals) goes through this interface, so that a test can put
 * a crash simulator (the test sources' {@code CrashSimulator}) underneath and see what a crash at any moment leaves on disk.
 *
 * <p>Implementations are not required to be thread-safe for writes at overlapping positions;
 * positional writes to disjoint ranges and concurrent reads must be safe.
 */
public interface Storage extends Closeable {

    /** The file, for messages. */
    Path path();

    /** Bytes in the file now, written or not yet forced. */
    long size() throws IOException;

    /**
     * Reads up to {@code target.remaining()} bytes at {@code position} into {@code target}.
     *
     * @return the number of bytes read, or -1 when {@code position} is at or past the end
     */
    int read(ByteBuffer target, long position) throws IOException;

    /** Writes every remaining byte of {@code source} at {@code position}. */
    void write(ByteBuffer source, long position) throws IOException;

    /** Cuts the file to {@code size} bytes (does nothing when it is not longer). */
    void truncate(long size) throws IOException;

    /**
     * Makes every write completed before this call durable: after a crash (of the process, the
     * node or its power) they are on disk. {@code metadata} also forces the file's size and
     * other metadata ({@code fsync} rather than {@code fdatasync}).
     */
    void force(boolean metadata) throws IOException;

    /**
     * Takes an advisory lock on the {@code size} bytes at {@code position} for this process,
     * shared or exclusive, without waiting. The bytes need not exist: a region far past any
     * real data names a role (HDF5 files lock a "writer" byte and an "SWMR reader" byte, see
     * docs/storage.md), and locks on disjoint regions never conflict. Within one process a
     * region is shared by every holder asking for it shared; any other overlap conflicts, as
     * another process's lock would.
     *
     * @return the lock, or null when another holder (a process, or another open file of this
     *         one) holds a conflicting lock
     */
    StorageLock tryLock(long position, long size, boolean shared) throws IOException;

    @Override
    void close() throws IOException;

    /**
     * Reads exactly {@code target.remaining()} bytes at {@code position}.
     *
     * @return false when the file ends first ({@code target}'s position then says how far)
     */
    default boolean readFully(ByteBuffer target, long position) throws IOException {
        long at = position;
        while (target.hasRemaining()) {
            int read = read(target, at);
            if (read < 0) {
                return false;
            }
            at += read;
        }
        return true;
    }
}
