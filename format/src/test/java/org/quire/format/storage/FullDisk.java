package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A disk that fills up: wraps another {@link StorageOpener} (a crash simulator, usually) and
 * fails every write once the bytes written through it reach a budget, as a full file system
 * does ("No space left on device"); the failing write writes nothing. {@link #free} gives space
 * back. Reads, truncations and forces pass through.
 */
public final class FullDisk implements StorageOpener {

    private final StorageOpener disk;
    private long bytesLeft = Long.MAX_VALUE;

    public FullDisk(StorageOpener disk) {
        this.disk = disk;
    }

    /** From now on, writes fail once {@code bytes} more have been written. */
    public synchronized void fillAfter(long bytes) {
        bytesLeft = bytes;
    }

    /** Space is back: writes no longer fail. */
    public synchronized void free() {
        bytesLeft = Long.MAX_VALUE;
    }

    private synchronized void charge(Path path, long position, int bytes) throws IOException {
        if (bytes > bytesLeft) {
            bytesLeft = 0;
            throw new IOException("No space left on device (writing " + bytes + " bytes at "
                    + position + " of " + path + ")");
        }
        bytesLeft -= bytes;
    }

    @Override
    public Storage open(Path path, OpenMode mode) throws IOException {
        Storage storage = disk.open(path, mode);
        return new Storage() {
            @Override
            public Path path() {
                return storage.path();
            }

            @Override
            public long size() throws IOException {
                return storage.size();
            }

            @Override
            public int read(ByteBuffer target, long position) throws IOException {
                return storage.read(target, position);
            }

            @Override
            public void write(ByteBuffer source, long position) throws IOException {
                charge(path, position, source.remaining());
                storage.write(source, position);
            }

            @Override
            public void truncate(long size) throws IOException {
                storage.truncate(size);
            }

            @Override
            public void force(boolean metadata) throws IOException {
                storage.force(metadata);
            }

            @Override
            public StorageLock tryLock(boolean shared) throws IOException {
                return storage.tryLock(shared);
            }

            @Override
            public void close() throws IOException {
                storage.close();
            }
        };
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return disk.deleteIfExists(path);
    }
}
