package org.quire.format.hdf5.cache;

import java.io.IOException;
import org.quire.format.storage.Storage;

/**
 * Reads an entry the cache does not hold (never held, or evicted since) back from the file.
 * Implementations verify what they read (signature, checksum) as any reader does.
 */
@FunctionalInterface
public interface EntryLoader<T extends CacheEntry> {

    /** The entry whose image starts at {@code address} in {@code storage}. */
    T load(long address, Storage storage) throws IOException;
}
