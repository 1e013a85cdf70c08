package org.quire.format.storage;

import java.io.Closeable;
import java.io.IOException;

/** An advisory lock a {@link Storage} holds on its file; released by {@link #close()}. */
public interface StorageLock extends Closeable {

    boolean shared();

    @Override
    void close() throws IOException;
}
