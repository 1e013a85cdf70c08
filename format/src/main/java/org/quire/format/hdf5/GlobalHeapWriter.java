package org.quire.format.hdf5;

import java.io.IOException;
import java.util.List;

import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.GlobalHeapCollection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.LittleEndianWriter;

/**
 * Stores the strings of one variable-length string attribute or dataset: new global heap
 * collections holding them, written at once, and the elements pointing at them. A collection
 * numbers its objects with 2 bytes (0 meaning free space), so it holds at most
 * {@link GlobalHeapCollection#MAXIMUM_OBJECTS}; strings fill one collection up to
 * {@link #COLLECTION_TARGET_SIZE} bytes (a longer string gets a collection of its own, as
 * libhdf5 does) and then start the next.
 */
final class GlobalHeapWriter {

    /** Bytes after which a collection is closed and the next one started. */
    static final int COLLECTION_TARGET_SIZE = 1 << 20;

    private GlobalHeapWriter() {
    }

    /**
     * Writes {@code strings} to new collections; returns their stored elements, in order.
     *
     * @throws IllegalArgumentException a string holds a NUL byte: libhdf5 hands variable-length
     *     strings to readers as C strings, so h5py would read it cut there (and refuses to
     *     write one)
     */
    static byte[] store(BlockFile blocks, List<byte[]> strings) throws IOException {
        for (int i = 0; i < strings.size(); i++) {
            byte[] string = strings.get(i);
            for (int b = 0; b < string.length; b++) {
                if (string[b] == 0) {
                    throw new IllegalArgumentException("string " + i + " holds a NUL byte at "
                            + b + ": a variable-length string ends at its first NUL for"
                            + " libhdf5's readers (h5py refuses to write one too)");
                }
            }
        }
        LittleEndianWriter elements = new LittleEndianWriter();
        if (strings.isEmpty()) {
            return elements.toByteArray();
        }
        int first = 0;
        while (first < strings.size()) {
            int end = first + 1;
            long size = GlobalHeapCollection.encodedSize(strings.subList(first, end));
            while (end < strings.size() && end - first < GlobalHeapCollection.MAXIMUM_OBJECTS) {
                long grown = size + GlobalHeapCollection.objectSize(strings.get(end));
                if (grown > COLLECTION_TARGET_SIZE) {
                    break;
                }
                size = grown;
                end++;
            }
            List<byte[]> batch = strings.subList(first, end);
            byte[] collection = GlobalHeapCollection.encode(batch);
            long address = blocks.allocate(collection.length);
            blocks.write(address, collection);
            for (int i = 0; i < batch.size(); i++) {
                elements.putBytes(new GlobalHeapId(batch.get(i).length, address, i + 1)
                        .encode());
            }
            first = end;
        }
        return elements.toByteArray();
    }
}
