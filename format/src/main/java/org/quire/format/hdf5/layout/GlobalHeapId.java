package org.quire.format.hdf5.layout;

import java.nio.file.Path;

import org.quire.format.CorruptFileException;

/**
 * One stored element of a variable-length type, specification section IV.A.2.d (class 9,
 * "Variable-Length") with the global heap ID of section III.E: the element's length (bytes of
 * a string) and where its bytes are, an object of a global heap collection.
 *
 * <pre>
 * 0            4                              12                16
 * +------------+------------------------------+-----------------+
 * | length (4) | collection address (8)       | object index (4)|
 * +------------+------------------------------+-----------------+
 * </pre>
 * An element never written (zero bytes: length 0, collection address 0) is the empty string.
 */
public record GlobalHeapId(long length, long collectionAddress, int objectIndex) {

    /** Bytes of one stored element. */
    public static final int SIZE = 16;

    /** The element stored at {@code offset} of {@code bytes}. */
    public static GlobalHeapId decode(Path file, long address, byte[] bytes,
                                      int offset) throws CorruptFileException {
        LittleEndianReader in = new LittleEndianReader(file, address, "variable-length element",
                bytes, offset, SIZE);
        long length = in.getInt("length") & 0xffffffffL;
        long collection = in.getAddress("global heap collection address");
        int index = in.getInt("global heap object index");
        return new GlobalHeapId(length, collection, index);
    }

    public byte[] encode() {
        return new LittleEndianWriter().putInt((int) length).putAddress(collectionAddress)
                .putInt(objectIndex).toByteArray();
    }

    /** Whether the element holds nothing to look up (a never-written, empty element). */
    public boolean isEmpty() {
        return length == 0;
    }
}
