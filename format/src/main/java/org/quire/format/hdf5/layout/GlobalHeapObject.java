package org.quire.format.hdf5.layout;

/**
 * All bytes of one object of a global heap collection (specification section III.E) and the
 * address where they start in the file, past the collection's header and the object's own:
 * what errors about a field inside the object count their offsets from.
 */
public record GlobalHeapObject(long address, byte[] bytes) {
}
