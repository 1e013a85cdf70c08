package org.quire.benchmarks.swmr;

import org.quire.format.storage.FileStorage;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opens real files ({@link FileStorage#OPENER}) and counts the bytes written to all of them through the storage
 * seam: the HDF5 file and its flush journal alike.
 */
final class CountingStorageOpener implements StorageOpener {

    private final AtomicLong written = new AtomicLong();

    @Override
    public Storage open(Path path, OpenMode mode) throws IOException {
        return new ForwardingStorage(FileStorage.OPENER.open(path, mode)) {
            @Override
            public void write(ByteBuffer source, long position) throws IOException {
                int bytes = source.remaining();
                delegate.write(source, position);
                written.addAndGet(bytes);
            }
        };
    }

    /** Bytes written so far through every storage this opener opened. */
    long written() {
        return written.get();
    }
}
