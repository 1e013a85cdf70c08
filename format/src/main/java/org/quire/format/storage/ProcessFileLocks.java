package org.quire.format.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The byte-range locks this JVM holds, by file (its device and inode where the file system
 * has them). Java's locks are POSIX {@code fcntl} locks, which belong to the process, not to a
 * channel: a second lock on an overlapping region from the same JVM throws {@link
 * OverlappingFileLockException} even when both are shared, and closing <em>any</em> descriptor
 * of the file drops every lock the process holds on it. So this registry
 * <ul>
 * <li>takes each region's operating system lock once and counts its shared holders;</li>
 * <li>answers an in-process conflict itself (null, as for another process's lock);</li>
 * <li>keeps the channels of a file it holds locks on open past their {@link FileStorage}'s
 *     close, hands them to storages opened on the file meanwhile ({@link #unpark}), and
 *     closes them when the file's last lock is released.</li>
 * </ul>
 * Opening and closing the file by other means in the same JVM (not through {@link FileStorage})
 * still drops its locks: that is the operating system's rule.
 */
final class ProcessFileLocks {

    /** One region locked by this process: its operating system lock and how many hold it. */
    private static final class Held {
        final long position;
        final long size;
        final FileLock lock;
        int holders = 1;

        Held(long position, long size, FileLock lock) {
            this.position = position;
            this.size = size;
            this.lock = lock;
        }

        boolean overlaps(long otherPosition, long otherSize) {
            return position < otherPosition + otherSize && otherPosition < position + size;
        }
    }

    /** A channel closed by its storage but kept open, and whether it was opened to write. */
    private record Parked(FileChannel channel, boolean writable) {
    }

    /** The locks held on one file, and channels closed by their storage but kept open. */
    private static final class FileLocks {
        final List<Held> held = new ArrayList<>();
        final List<Parked> parked = new ArrayList<>();
    }

    private static final Map<Object, FileLocks> FILES = new HashMap<>();

    private ProcessFileLocks() {
    }

    /** A lock on the region, taken through {@code channel}; null on any conflict. */
    static synchronized StorageLock tryLock(Object fileKey, FileChannel channel, long position,
                                            long size, boolean shared) throws IOException {
        FileLocks file = FILES.computeIfAbsent(fileKey, key -> new FileLocks());
        for (Held held : file.held) {
            if (held.position == position && held.size == size && held.lock.isShared()
                    && shared) {
                held.holders++;
                return handle(fileKey, held);
            }
            if (held.overlaps(position, size)) {
                return null;
            }
        }
        FileLock lock;
        try {
            lock = channel.tryLock(position, size, shared);
        } catch (OverlappingFileLockException e) {
            lock = null; // taken through a channel this registry does not know
        }
        if (lock == null) {
            forgetIfUnused(fileKey, file);
            return null;
        }
        Held held = new Held(position, size, lock);
        file.held.add(held);
        return handle(fileKey, held);
    }

    private static StorageLock handle(Object fileKey, Held held) {
        boolean shared = held.lock.isShared();
        return new StorageLock() {
            private boolean released;

            @Override
            public boolean shared() {
                return shared;
            }

            @Override
            public void close() throws IOException {
                synchronized (ProcessFileLocks.class) {
                    if (!released) {
                        released = true;
                        release(fileKey, held);
                    }
                }
            }
        };
    }

    private static void release(Object fileKey, Held held) throws IOException {
        if (--held.holders > 0) {
            return;
        }
        FileLocks file = FILES.get(fileKey);
        file.held.remove(held);
        try {
            if (held.lock.isValid()) {
                held.lock.release();
            }
        } finally {
            forgetIfUnused(fileKey, file);
        }
    }

    /** Once a file has no locks left, closes the channels kept open for them. */
    private static void forgetIfUnused(Object fileKey, FileLocks file) throws IOException {
        if (!file.held.isEmpty()) {
            return;
        }
        FILES.remove(fileKey);
        IOException failure = null;
        for (Parked parked : file.parked) {
            try {
                parked.channel().close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Closes {@code channel} of the file, or keeps it open while this process holds locks on
     * the file (closing it would drop them).
     */
    static synchronized void close(Object fileKey, FileChannel channel, boolean writable)
            throws IOException {
        FileLocks file = FILES.get(fileKey);
        if (file != null && !file.held.isEmpty()) {
            file.parked.add(new Parked(channel, writable));
        } else {
            channel.close();
        }
    }

    /**
     * A channel of the file kept open for its locks, opened to write if {@code writable} (else
     * read-only), for a storage opening the file now; null if none. Opening a new descriptor
     * instead would leave one more open until the locks go.
     */
    static synchronized FileChannel unpark(Object fileKey, boolean writable) {
        FileLocks file = FILES.get(fileKey);
        if (file == null) {
            return null;
        }
        for (int i = 0; i < file.parked.size(); i++) {
            if (file.parked.get(i).writable() == writable) {
                return file.parked.remove(i).channel();
            }
        }
        return null;
    }
}
