package org.quire.format.hdf5;

import java.io.IOException;
import java.util.List;

import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.GlobalHeapCollection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.LittleEndianWriter;

/**
 * Stores the strings of one variable-length string attribute or dataset: one new global heap
 * collection holding them all, written at once, and the elements pointing at them.
 */
final class GlobalHeapWriter {

    private GlobalHeapWriter() {
    }

    /** Writes {@code strings} to a new collection; returns their stored elements, in order. */
    static byte[] store(BlockFile blocks, List<byte[]> strings) throws IOException {
        LittleEndianWriter elements = new LittleEndianWriter();
        if (strings.isEmpty()) {
            return elements.toByteArray();
        }
        byte[] collection = GlobalHeapCollection.encode(strings);
        long address = blocks.allocate(collection.length);
        blocks.write(address, collection);
        for (int i = 0; i < strings.size(); i++) {
            elements.putBytes(new GlobalHeapId(strings.get(i).length, address, i + 1).encode());
        }
        return elements.toByteArray();
    }
}
