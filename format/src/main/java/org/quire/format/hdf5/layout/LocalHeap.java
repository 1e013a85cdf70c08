package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;

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
 *
 * <p>Written as libhdf5's H5HL.c writes it: a string takes its length plus the NUL rounded up
 * to 8 bytes from the first free block that fits exactly or leaves at least 16 bytes (a free
 * block header); when none does the segment grows by at least its own size, moving to new
 * space with its old bytes, and the new tail joins the free block ending the segment or is
 * put first on the free list. A removed string's bytes join an adjoining free block (two
 * merge when it lies between them) or are put first on the list; fewer than 16 bytes on their
 * own are lost. libhdf5 also shrinks a segment whose last free block holds half of it; Quire
 * never shrinks one (the segment stays valid, only larger).
 */
public final class LocalHeap {

    static final BlockIdentity IDENTITY = BlockIdentity.signed("local heap", "HEAP", 0);
    public static final int HEADER_SIZE = 32;
    /** libhdf5's "no free block" offset (H5HL_FREE_NULL). */
    private static final long FREE_LIST_END = 1;
    private static final int FREE_BLOCK_HEADER = 2 * Addresses.SIZE_OF_LENGTHS;
    /** Strings and free blocks start at multiples of 8 (H5HL_ALIGN). */
    private static final int ALIGNMENT = 8;
    private static final int SIZE_AT = 8;
    private static final int DATA_ADDRESS_AT = 24;

    /** One free block: where it starts in the data segment, how many bytes it spans. */
    private static final class FreeBlock {
        private long offset;
        private long size;

        private FreeBlock(long offset, long size) {
            this.offset = offset;
            this.size = size;
        }

        private long end() {
            return offset + size;
        }
    }

    private final Path file;
    private final long address;
    private long dataAddress;
    private byte[] data;
    /** In list order, the head first, as libhdf5 keeps and writes it. */
    private final List<FreeBlock> freeList = new ArrayList<>();

    private LocalHeap(Path file, long address, long dataAddress, byte[] data) {
        this.file = file;
        this.address = address;
        this.dataAddress = dataAddress;
        this.data = data;
    }

    public long address() {
        return address;
    }

    public long dataAddress() {
        return dataAddress;
    }

    public int dataSize() {
        return data.length;
    }

    /** Reads the heap at {@code address} with its data segment and checks its free list. */
    public static LocalHeap read(BlockFile file, long address) throws IOException {
        byte[] header = readHeader(file, address);
        return decode(file, address, header,
                file.read(dataAddress(header), dataSize(header), "local heap data segment"));
    }

    /**
     * The 32 header bytes at {@code address}, their signature, version and data segment size
     * checked (the size at most the file's, so that reading the segment cannot run wild).
     */
    public static byte[] readHeader(BlockFile file, long address) throws IOException {
        byte[] header = file.read(address, HEADER_SIZE, IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, header, IDENTITY);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), header);
        in.skip(SIZE_AT);
        long size = in.getLength("data segment size");
        long largest = Math.min(file.size(), Integer.MAX_VALUE - 8);
        if (size < 0 || size > largest) {
            throw in.corrupt(address + SIZE_AT, "data segment size", "at most " + largest
                    + " (the file size, and an array's)", Long.toUnsignedString(size));
        }
        return header;
    }

    /** The data segment's address in a header {@link #readHeader} checked. */
    public static long dataAddress(byte[] header) {
        return longAt(header, DATA_ADDRESS_AT);
    }

    /** The data segment's size in a header {@link #readHeader} checked. */
    public static int dataSize(byte[] header) {
        return (int) longAt(header, SIZE_AT);
    }

    private static long longAt(byte[] bytes, int at) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | (bytes[at + i] & 0xff);
        }
        return value;
    }

    /**
     * The heap at {@code address} of {@code file} from its header (checked by {@link
     * #readHeader}) and its data segment, both copied; the free list is checked.
     */
    public static LocalHeap decode(BlockFile file, long address, byte[] header, byte[] data)
            throws CorruptFileException {
        LocalHeap heap = new LocalHeap(file.path(), address, dataAddress(header), data.clone());
        heap.readFreeList(address + 16, longAt(header, 16));
        file.countChecked(IDENTITY.structure());
        return heap;
    }

    /** Every free block inside the segment, none visited twice, in list order. */
    private void readFreeList(long headAt, long head) throws CorruptFileException {
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
            freeList.add(new FreeBlock(offset, size));
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

    /**
     * Stores {@code string} and a NUL, returning its offset (H5HL_insert). When no free block
     * fits, the segment grows to its size plus the larger of its size and the string's, at
     * {@code allocate}'s new address (the length asked for is the new size): {@link
     * #dataAddress()} then differs, and the old segment is no longer used.
     *
     * @throws IllegalArgumentException {@code string} holds a NUL byte
     */
    public long insert(byte[] string, LongUnaryOperator allocate) {
        for (byte b : string) {
            if (b == 0) {
                throw new IllegalArgumentException("a name with a NUL byte cannot be stored in a "
                        + "local heap: \"" + LosslessUtf8.decode(string) + "\"");
            }
        }
        int length = string.length + 1;
        long need = align(length);
        FreeBlock last = null;
        for (FreeBlock block : freeList) {
            if (block.size > need && block.size - need >= FREE_BLOCK_HEADER) {
                long offset = block.offset;
                block.offset += need;
                block.size -= need;
                return put(offset, string);
            }
            if (block.size == need) {
                freeList.remove(block);
                return put(block.offset, string);
            }
            if (last == null || last.offset < block.offset) {
                last = block;
            }
        }
        return grow(string, need, last, allocate);
    }

    /**
     * No free block fits {@code need} bytes: the segment at least doubles ({@code last}: the
     * free block nearest its end, which grows when it ends the segment).
     */
    private long grow(byte[] string, long need, FreeBlock last, LongUnaryOperator allocate) {
        int oldSize = data.length;
        boolean lastEndsSegment = last != null && last.end() == oldSize;
        long more = Math.max(need, oldSize);
        if (!lastEndsSegment && more < need + FREE_BLOCK_HEADER) {
            more = need;
        }
        long newSize = oldSize + more;
        if (newSize > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("local heap at " + address + " of " + file
                    + " cannot grow beyond " + oldSize + " bytes");
        }
        long offset;
        if (lastEndsSegment) {
            offset = last.offset;
            last.offset += need;
            last.size += more - need;
            if (last.size < FREE_BLOCK_HEADER) {
                freeList.remove(last);
            }
        } else {
            offset = oldSize;
            if (more - need >= FREE_BLOCK_HEADER) {
                freeList.add(0, new FreeBlock(oldSize + need, more - need));
            }
        }
        data = Arrays.copyOf(data, (int) newSize);
        // libhdf5 clears everything after the new string so no junk reaches the file.
        Arrays.fill(data, (int) offset + string.length + 1, data.length, (byte) 0);
        dataAddress = allocate.applyAsLong(newSize);
        return put(offset, string);
    }

    private long put(long offset, byte[] string) {
        System.arraycopy(string, 0, data, (int) offset, string.length);
        data[(int) offset + string.length] = 0;
        return offset;
    }

    /**
     * Frees the {@code length} bytes at {@code offset} (a string and its NUL, as {@link #insert}
     * stored it; H5HL_remove): they join an adjoining free block, or head the free list.
     */
    public void remove(long offset, long length) {
        long size = align(length);
        if (offset % ALIGNMENT != 0 || offset < 0 || offset + size > data.length) {
            throw new IllegalArgumentException("no heap object of " + length + " bytes at "
                    + offset + " in the " + data.length + "-byte segment of the local heap at "
                    + address);
        }
        for (int i = 0; i < freeList.size(); i++) {
            FreeBlock block = freeList.get(i);
            if (offset + size == block.offset) {
                block.offset = offset;
                block.size += size;
                mergeFollowing(i, other -> other.end() == block.offset, other -> {
                    block.offset = other.offset;
                    block.size += other.size;
                });
                return;
            }
            if (block.end() == offset) {
                block.size += size;
                mergeFollowing(i, other -> block.end() == other.offset,
                        other -> block.size += other.size);
                return;
            }
        }
        if (size >= FREE_BLOCK_HEADER) {
            freeList.add(0, new FreeBlock(offset, size));
        }
    }

    /** Merges into block {@code i} the first block after it in the list that {@code adjoins}. */
    private void mergeFollowing(int i, Predicate<FreeBlock> adjoins,
                                Consumer<FreeBlock> merge) {
        for (int j = i + 1; j < freeList.size(); j++) {
            FreeBlock other = freeList.get(j);
            if (adjoins.test(other)) {
                merge.accept(other);
                freeList.remove(j);
                return;
            }
        }
    }

    private static long align(long length) {
        return (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** The 32-byte header as it stands. */
    public byte[] headerImage() {
        return new LittleEndianWriter(HEADER_SIZE).putBytes(IDENTITY.signature()).putByte(0)
                .putZeros(3).putLength(data.length)
                .putLength(freeList.isEmpty() ? FREE_LIST_END : freeList.get(0).offset)
                .putAddress(dataAddress).toByteArray();
    }

    /** The data segment as it stands, each free block starting with its header. */
    public byte[] dataImage() {
        byte[] image = data.clone();
        for (int i = 0; i < freeList.size(); i++) {
            FreeBlock block = freeList.get(i);
            byte[] header = new LittleEndianWriter(FREE_BLOCK_HEADER)
                    .putLength(i + 1 < freeList.size() ? freeList.get(i + 1).offset : FREE_LIST_END)
                    .putLength(block.size).toByteArray();
            System.arraycopy(header, 0, image, (int) block.offset, FREE_BLOCK_HEADER);
        }
        return image;
    }
}
