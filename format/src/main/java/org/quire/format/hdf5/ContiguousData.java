package org.quire.format.hdf5;

import java.io.IOException;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.chunk.BoxCopy;
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

    /** Copies the hyperslab at {@code start} of {@code count} elements into {@code target}. */
    void read(long[] start, long[] count, byte[] target, byte[] fillElement) throws IOException {
        long[] origin = new long[count.length];
        if (compact != null) {
            copy(compact, start, count, target);
        } else if (!Addresses.isDefined(address)) {
            if (count.length == 0) {
                System.arraycopy(fillElement, 0, target, 0, elementSize);
            } else {
                BoxCopy.fill(target, count, origin, count, fillElement);
            }
        } else if (count.length == 0) {
            System.arraycopy(file.read(address, elementSize, "contiguous dataset data"), 0,
                    target, 0, elementSize);
        } else {
            readRuns(start, count, target);
        }
    }

    private void copy(byte[] source, long[] start, long[] count, byte[] target) {
        if (count.length == 0) {
            System.arraycopy(source, 0, target, 0, elementSize);
        } else {
            BoxCopy.copy(source, shape, start, target, count, new long[count.length], count,
                    elementSize);
        }
    }

    /**
     * Reads the selection as runs of consecutive elements: dimensions after {@code split}
     * are selected whole, so each run covers {@code count[split]} of their blocks.
     */
    private void readRuns(long[] start, long[] count, byte[] target) throws IOException {
        int rank = shape.length;
        for (long c : count) {
            if (c == 0) {
                return;
            }
        }
        int split = rank - 1;
        while (split > 0 && start[split] == 0 && count[split] == shape[split]) {
            split--;
        }
        long inner = 1;
        for (int d = split + 1; d < rank; d++) {
            inner *= shape[d];
        }
        int runBytes = (int) (count[split] * inner * elementSize);
        long[] position = new long[split + 1];
        int targetOffset = 0;
        while (true) {
            long element = 0;
            for (int d = 0; d < rank; d++) {
                long index = d <= split ? start[d] + position[d] : 0;
                element = element * shape[d] + index;
            }
            byte[] run = file.read(address + element * elementSize, runBytes,
                    "contiguous dataset data");
            System.arraycopy(run, 0, target, targetOffset, runBytes);
            targetOffset += runBytes;
            int d = split - 1;
            while (d >= 0 && ++position[d] == count[d]) {
                position[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
