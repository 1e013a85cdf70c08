package org.quire.format.storage;

import java.io.IOException;
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

    private final class Tracked extends ForwardingStorage {
        private boolean closed;

        Tracked(Storage storage) {
            super(storage);
        }

        @Override
        public void close() throws IOException {
            delegate.close();
            synchronized (open) {
                if (!closed) {
                    open.remove(delegate.path());
                    closed = true;
                }
            }
        }
    }
}
