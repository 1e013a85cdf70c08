package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.quire.format.CorruptFileException;

/**
 * Local heap, specification section III.D: the names of an old-style group's members, as
 * NUL-terminated strings in one data segment, found by their offset in it. No checksum: the
 * signature, version, the data segment's place and the free list are checked instead.
 *
 * <pre>
 * +--------+---------+--------------+--------------------------+---------------------------+
 * | "HEAP" | version | reserved (3) | data segment size (8)    | offset to head of free    |
 * |        |   (0)   |              |                          | list (8; 1: none)         |
 * +--------+---------+--------------+--------------------------+---------------------------+
 * | address of data segment (8)   |   (32 bytes in all)
 * +-------------------------------+
 * free block, inside the data segment: offset of next free block (8; 1: none), size (8)
 * </pre>
 */
public final class LocalHeap {

    static final BlockIdentity IDENTITY = BlockIdentity.signed("local heap", "HEAP", 0);
    private static final int HEADER_SIZE = 32;
    /** libhdf5's "no free block" offset (H5HL_FREE_NULL). */
    private static final long FREE_LIST_END = 1;
    private static final int FREE_BLOCK_HEADER = 2 * Addresses.SIZE_OF_LENGTHS;

    private final Path file;
    private final long address;
    private final long dataAddress;
    private final byte[] data;

    private LocalHeap(Path file, long address, long dataAddress, byte[] data) {
        this.file = file;
        this.address = address;
        this.dataAddress = dataAddress;
        this.data = data;
    }

    public long address() {
        return address;
    }

    /** Reads the heap at {@code address} with its data segment and checks its free list. */
    public static LocalHeap read(BlockFile file, long address) throws IOException {
        byte[] header = file.read(address, HEADER_SIZE, IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, header, IDENTITY);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), header);
        in.skip(IDENTITY.prefixLength() + 3);
        long sizeAt = in.absolutePosition();
        long size = in.getLength("data segment size");
        long largest = Math.min(file.size(), Integer.MAX_VALUE - 8);
        if (size < 0 || size > largest) {
            throw in.corrupt(sizeAt, "data segment size", "at most " + largest
                    + " (the file size, and an array's)", Long.toUnsignedString(size));
        }
        long freeAt = in.absolutePosition();
        long freeList = in.getLength("offset to head of free list");
        long dataAddress = in.getAddress("address of data segment");
        byte[] data = file.read(dataAddress, (int) size, "local heap data segment");
        LocalHeap heap = new LocalHeap(file.path(), address, dataAddress, data);
        heap.checkFreeList(freeAt, freeList);
        file.countChecked(IDENTITY.structure());
        return heap;
    }

    /** Every free block inside the segment, none visited twice. */
    private void checkFreeList(long headAt, long head) throws CorruptFileException {
        Set<Long> visited = new HashSet<>();
        long referencedAt = headAt;
        String field = "offset to head of free list";
        long offset = head;
        while (offset != FREE_LIST_END) {
            if (offset < 0 || offset > data.length - FREE_BLOCK_HEADER || !visited.add(offset)) {
                throw new CorruptFileException(file, referencedAt, IDENTITY.structure(), field,
                        "the offset of a free block not yet listed, inside the data segment of "
                                + data.length + " bytes, or 1 (none)",
                        Long.toUnsignedString(offset));
            }
            LittleEndianReader in = new LittleEndianReader(file, dataAddress,
                    IDENTITY.structure(), data, (int) offset, FREE_BLOCK_HEADER);
            referencedAt = dataAddress + offset;
            long next = in.getLength("offset of next free block");
            long size = in.getLength("size of free block");
            if (size < FREE_BLOCK_HEADER || size > data.length - offset) {
                throw new CorruptFileException(file, referencedAt + Addresses.SIZE_OF_LENGTHS,
                        IDENTITY.structure(), "size of free block", FREE_BLOCK_HEADER + ".."
                                + (data.length - offset), Long.toUnsignedString(size));
            }
            field = "offset of next free block";
            offset = next;
        }
    }

    /**
     * The NUL-terminated string at {@code offset} of the data segment, which the field
     * {@code field} of {@code structure} at {@code referencedAt} gave.
     */
    public String string(long offset, long referencedAt, String structure, String field)
            throws CorruptFileException {
        if (offset < 0 || offset >= data.length) {
            throw new CorruptFileException(file, referencedAt, structure, field,
                    "an offset below the size " + data.length + " of the local heap at "
                            + address, Long.toUnsignedString(offset));
        }
        int end = (int) offset;
        while (end < data.length && data[end] != 0) {
            end++;
        }
        if (end == data.length) {
            throw new CorruptFileException(file, dataAddress + offset, "local heap data segment",
                    "string", "a NUL before the end of the data segment", "none");
        }
        return LosslessUtf8.decode(data, (int) offset, end - (int) offset);
    }
}
