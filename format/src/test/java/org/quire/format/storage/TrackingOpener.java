package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens real files and remembers which of them are still open, so that a test can check that
 * every path through an operation, failed ones included, closes every file it opened. Safe for
 * the thread ranks of one test.
 */
public final class TrackingOpener implements StorageOpener {

    private final List<Path> open = new ArrayList<>();

    @Override
    public Storage open(Path path, OpenMode mode) throws IOException {
        Storage storage = FileStorage.open(path, mode);
        synchronized (open) {
            open.add(path);
        }
        return new Tracked(storage);
    }

    /** The files opened and not yet closed, one entry per open storage. */
    public List<Path> stillOpen() {
        synchronized (open) {
            return List.copyOf(open);
        }
    }

    private final class Tracked implements Storage {
        private final Storage storage;
        private boolean closed;

        Tracked(Storage storage) {
            this.storage = storage;
        }

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
            synchronized (open) {
                if (!closed) {
                    open.remove(storage.path());
                    closed = true;
                }
            }
        }
    }
}
