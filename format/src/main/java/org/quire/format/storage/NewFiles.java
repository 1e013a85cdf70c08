package org.quire.format.storage;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Creating a file the way a {@link CreateMode} says, and holding the writer's lock on it, so that
 * another {@link CreateMode#REPLACE} of the same name is refused while it is written.
 */
public final class NewFiles {

    private NewFiles() {
    }

    /**
     * Opens a new, empty file {@code path} for writing, holding an exclusive lock on it until the
     * storage is closed. In {@link CreateMode#REPLACE} an existing file is first removed, unless a
     * writer holds its lock.
     *
     * @throws java.nio.file.FileAlreadyExistsException {@link CreateMode#FAIL_IF_EXISTS} and the file exists
     * @throws FileInUseException {@link CreateMode#REPLACE} and a writer has the file open
     */
    public static Storage createLocked(StorageOpener opener, Path path, CreateMode mode) throws IOException {
        if (mode == CreateMode.REPLACE) {
            removeUnlessInUse(opener, path);
        }
        Storage storage = opener.open(path, OpenMode.CREATE_NEW);
        StorageLock lock;
        try {
            lock = exclusiveWholeFile(storage);
        } catch (IOException | RuntimeException e) {
            storage.close();
            throw e;
        }
        if (lock == null) { // another process locked the new file before this one could
            storage.close();
            throw new FileInUseException(path.toString());
        }
        return new Locked(storage, lock);
    }

    /**
     * Removes {@code path}, if it exists, while holding its lock, so that no writer is working on
     * it; a reader that has it open keeps the old bytes (the file is unlinked, not truncated).
     *
     * @throws FileInUseException a writer holds the file's lock; nothing was changed
     */
    public static void removeUnlessInUse(StorageOpener opener, Path path) throws IOException {
        Storage existing;
        try {
            existing = opener.open(path, OpenMode.READ_WRITE);
        } catch (NoSuchFileException nothingToReplace) {
            return;
        }
        try (existing; StorageLock lock = exclusiveWholeFile(existing)) {
            if (lock == null) {
                throw new FileInUseException(path.toString());
            }
            opener.deleteIfExists(path);
        }
    }

    /**
     * Every byte a lock can name, so it conflicts with any other holder's lock, including the
     * role bytes an HDF5 writer or reader holds far past the data (docs/storage.md).
     */
    private static StorageLock exclusiveWholeFile(Storage storage) throws IOException {
        return storage.tryLock(0, Long.MAX_VALUE, false);
    }

    /** A storage that releases its lock when it is closed. */
    private static final class Locked extends ForwardingStorage {
        private final StorageLock lock;

        Locked(Storage storage, StorageLock lock) {
            super(storage);
            this.lock = lock;
        }

        @Override
        public void close() throws IOException {
            try (Storage storage = delegate) {
                lock.close();
            }
        }
    }
}
