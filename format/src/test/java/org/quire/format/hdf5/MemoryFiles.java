package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;
import org.quire.format.storage.StorageOpener;

/**
 * Files held in memory, for tests whose subject is not the disk (millions of tiny writes that
 * would otherwise be as many system calls). No crash model: {@code force} does nothing; use
 * {@code CrashSimulator} for that. Locks are not enforced.
 */
final class MemoryFiles implements StorageOpener {

    private final Map<Path, byte[][]> files = new HashMap<>();
    private final Map<Path, long[]> sizes = new HashMap<>();

    @Override
    public synchronized Storage open(Path path, OpenMode mode) throws IOException {
        boolean exists = files.containsKey(path);
        if (!exists && (mode == OpenMode.READ || mode == OpenMode.READ_WRITE)) {
            throw new NoSuchFileException(path.toString());
        }
        if (exists && mode == OpenMode.CREATE_NEW) {
            throw new FileAlreadyExistsException(path.toString());
        }
        if (!exists) {
            files.put(path, new byte[][] {new byte[4096]});
            sizes.put(path, new long[1]);
        }
        return new MemoryStorage(path, files.get(path), sizes.get(path));
    }

    @Override
    public synchronized boolean deleteIfExists(Path path) {
        sizes.remove(path);
        return files.remove(path) != null;
    }

    /** One open file: {@code bytes[0]} grows by doubling, {@code length[0]} is its length. */
    private record MemoryStorage(Path path, byte[][] bytes, long[] length) implements Storage {

        @Override
        public long size() {
            return length[0];
        }

        @Override
        public int read(ByteBuffer target, long position) {
            if (position >= length[0]) {
                return -1;
            }
            int n = (int) Math.min(target.remaining(), length[0] - position);
            target.put(bytes[0], (int) position, n);
            return n;
        }

        @Override
        public void write(ByteBuffer source, long position) {
            long end = position + source.remaining();
            if (end > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("in-memory file " + path + " past 2 GiB");
            }
            if (end > bytes[0].length) {
                bytes[0] = Arrays.copyOf(bytes[0], (int) Math.min(Integer.MAX_VALUE - 16,
                        Math.max(end, 2L * bytes[0].length)));
            }
            source.get(bytes[0], (int) position, source.remaining());
            length[0] = Math.max(length[0], end);
        }

        @Override
        public void truncate(long newSize) {
            if (newSize < length[0]) {
                Arrays.fill(bytes[0], (int) newSize, (int) length[0], (byte) 0);
                length[0] = newSize;
            }
        }

        @Override
        public void force(boolean metadata) {
        }

        @Override
        public StorageLock tryLock(long position, long size, boolean shared) {
            return new StorageLock() {
                @Override
                public boolean shared() {
                    return shared;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void close() {
        }
    }
}
