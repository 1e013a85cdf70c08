package org.quire.format.hdf5.cache;

/**
 * A flush dependency the cache cannot take or drop: an entry it does not hold, a parent in an
 * earlier flush stage than its child, a chunk proxy as a parent, or no such dependency to
 * destroy. It is a mistake of the writer using the cache, never a state of a file.
 */
public class FlushDependencyException extends IllegalArgumentException {

    public FlushDependencyException(String message) {
        super(message);
    }
}
