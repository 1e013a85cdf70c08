package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * What a message may point at outside its own body, resolved by the file that holds it: a
 * committed datatype (a shared datatype message) and the bytes of variable-length elements in
 * the global heap.
 */
public interface StoredReferences {

    /** The datatype committed in the object header at {@code address}. */
    DatatypeDescription committedDatatype(long address) throws IOException;

    /** The bytes of the variable-length element {@code id}. */
    byte[] globalHeapObject(GlobalHeapId id) throws IOException;
}
