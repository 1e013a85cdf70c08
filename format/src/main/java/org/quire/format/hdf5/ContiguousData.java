package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.chunk.BoxRuns;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;

/**
 * The elements of a contiguous or compact dataset, row-major: in one block of the file, or in
 * the bytes of the data layout message. A hyperslab read reads only the runs of consecutive
 * elements it selects; a contiguous dataset whose block was never allocated (undefined address)
 * reads as the fill value.
 */
final class ContiguousData {

    private final BlockFile file;
    private final long address;
    /** The compact data, or null for contiguous storage. */
    private final byte[] compact;
    private final long[] shape;
    private final int elementSize;

    private ContiguousData(BlockFile file, long address, byte[] compact, long[] shape,
                           int elementSize) {
        this.file = file;
        this.address = address;
        this.compact = compact;
        this.shape = shape;
        this.elementSize = elementSize;
    }

    /**
     * The block of {@code size} bytes at {@code address} (undefined: never written), which must
     * hold exactly the elements of {@code shape} and lie inside the file; the object header at
     * {@code objectAddress} holds the layout message.
     */
    static ContiguousData contiguous(BlockFile file, long objectAddress, long address, long size,
                                     long[] shape, int elementSize) throws IOException {
        long needed = Shapes.elementCount(shape) * elementSize;
        if (size != needed) {
            throw new CorruptFileException(file.path(), objectAddress, "data layout message",
                    "contiguous storage size", needed + " bytes (shape times element size)",
                    Long.toUnsignedString(size));
        }
        // size is the shape's byte count, so not negative; the block must end inside the file.
        if (Addresses.isDefined(address)
                && (address < 0 || size > file.size() || address > file.size() - size)) {
            throw new CorruptFileException(file.path(), address, "contiguous dataset data",
                    "address", "a block of " + size + " bytes inside the file of " + file.size()
                    + " bytes", Long.toUnsignedString(address));
        }
        return new ContiguousData(file, address, null, shape, elementSize);
    }

    /**
     * Elements held by a compact layout message (in the object header at
     * {@code objectAddress}), which must hold exactly those of {@code shape}.
     */
    static ContiguousData compact(BlockFile file, long objectAddress, byte[] data, long[] shape,
                                  int elementSize) throws CorruptFileException {
        long needed = Shapes.elementCount(shape) * elementSize;
        if (data.length != needed) {
            throw new CorruptFileException(file.path(), objectAddress, "data layout message",
                    "compact data size", needed + " bytes (shape times element size)",
                    Integer.toString(data.length));
        }
        return new ContiguousData(file, Addresses.UNDEFINED, data, shape, elementSize);
    }

    /** The block's address: undefined when never written, and for compact data. */
    long address() {
        return address;
    }

    /** Bytes of all elements. */
    long size() {
        return Shapes.elementCount(shape) * elementSize;
    }

    StorageLayout layout() {
        return compact != null ? StorageLayout.COMPACT : StorageLayout.CONTIGUOUS;
    }

    /**
     * Stores the hyperslab at {@code start} of {@code count} elements in {@code target}, reading
     * only the runs of consecutive elements it selects ({@code transfer} carries them into an
     * array).
     */
    void read(long[] start, long[] count, SelectionTarget target, byte[] fillElement,
              TransferBuffer transfer) throws IOException {
        long[] origin = new long[count.length];
        if (compact != null) {
            ByteBuffer bytes = ByteBuffer.wrap(compact);
            BoxRuns.forEach(shape, start, count, origin, count,
                    (from, to, elements) -> target.put(to, bytes.slice((int) from * elementSize,
                            (int) elements * elementSize)));
        } else if (!Addresses.isDefined(address)) {
            target.fill(0, Shapes.elementCount(count), fillElement);
        } else {
            BoxRuns.forEach(shape, start, count, origin, count,
                    (from, to, elements) -> target.read(to, elements, transfer,
                            (done, into) -> file.read(address + (from + done) * elementSize,
                                    into, "contiguous dataset data")));
        }
    }
}
