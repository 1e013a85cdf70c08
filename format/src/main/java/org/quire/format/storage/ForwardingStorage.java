package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A {@link Storage} that passes every call to another one; wrappers override only the calls they
 * change (a storage that also releases a lock at close; in tests, a filling disk, failing forces,
 * open-file tracking).
 */
public abstract class ForwardingStorage implements Storage {

    protected final Storage delegate;

    protected ForwardingStorage(Storage delegate) {
        this.delegate = delegate;
    }

    @Override
    public Path path() {
        return delegate.path();
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
        return delegate.read(target, position);
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
        delegate.write(source, position);
    }

    @Override
    public void truncate(long size) throws IOException {
        delegate.truncate(size);
    }

    @Override
    public void force(boolean metadata) throws IOException {
        delegate.force(metadata);
    }

    @Override
    public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
