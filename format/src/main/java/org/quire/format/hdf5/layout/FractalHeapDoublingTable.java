package org.quire.format.hdf5.layout;

/**
 * The doubling table of a fractal heap's managed objects (specification section III.G, "Fractal
 * Heap"; libhdf5's H5HFdtable.c): blocks laid out in rows of {@code width} blocks, the first
 * two rows of the starting block size, each later row twice the one before. Rows up to the
 * maximum direct block size hold direct blocks; later rows hold indirect blocks, each a smaller
 * table of its own. Every block covers a range of the heap's address space, and a managed
 * object's heap ID holds its offset in that space.
 */
public final class FractalHeapDoublingTable {

    /** Direct blocks are read whole; larger ones are taken as corrupt. */
    public static final long MAX_DIRECT_BLOCK_SIZE = 1L << 30;

    private final int width;
    private final long startBlockSize;
    private final long maxDirectBlockSize;
    private final int maxHeapBits;
    private final long maxManagedObjectSize;
    private final int firstRowBits;

    /**
     * @throws IllegalArgumentException the width or a block size is not a power of two, the
     *                                  direct blocks exceed {@link #MAX_DIRECT_BLOCK_SIZE} or
     *                                  the heap 64 bits
     */
    public FractalHeapDoublingTable(int width, long startBlockSize, long maxDirectBlockSize,
                                    int maxHeapBits, long maxManagedObjectSize) {
        if (Integer.bitCount(width) != 1 || Long.bitCount(startBlockSize) != 1
                || Long.bitCount(maxDirectBlockSize) != 1 || startBlockSize > maxDirectBlockSize
                || maxDirectBlockSize > MAX_DIRECT_BLOCK_SIZE || maxHeapBits > 64
                || maxManagedObjectSize < 1) {
            throw new IllegalArgumentException("width " + width + ", starting block "
                    + startBlockSize + ", maximum direct block " + maxDirectBlockSize
                    + ", heap of " + maxHeapBits + " bits, managed objects up to "
                    + maxManagedObjectSize);
        }
        this.width = width;
        this.startBlockSize = startBlockSize;
        this.maxDirectBlockSize = maxDirectBlockSize;
        this.maxHeapBits = maxHeapBits;
        this.maxManagedObjectSize = maxManagedObjectSize;
        this.firstRowBits = log2(startBlockSize) + log2(width);
        if (maxHeapBits < firstRowBits) {
            throw new IllegalArgumentException("a heap of " + maxHeapBits + " bits is smaller "
                    + "than its first row of " + firstRowBits + " bits");
        }
    }

    private static int log2(long powerOfTwo) {
        return 63 - Long.numberOfLeadingZeros(powerOfTwo);
    }

    public int width() {
        return width;
    }

    public long startBlockSize() {
        return startBlockSize;
    }

    /** Most rows the root indirect block can have. */
    public int maxRootRows() {
        return maxHeapBits - firstRowBits + 1;
    }

    /** Rows of direct blocks in an indirect block; rows past them hold indirect blocks. */
    public int maxDirectRows() {
        return log2(maxDirectBlockSize) - log2(startBlockSize) + 2;
    }

    /** Size of each block in {@code row}. */
    public long rowBlockSize(int row) {
        return row == 0 ? startBlockSize : startBlockSize << (row - 1);
    }

    /** Offset, from the start of its indirect block's range, where {@code row} starts. */
    public long rowOffset(int row) {
        return row == 0 ? 0 : (startBlockSize * width) << (row - 1);
    }

    /** Offset, from the start of its indirect block's range, of the block at row, column. */
    public long blockOffset(int row, long column) {
        return rowOffset(row) + column * rowBlockSize(row);
    }

    /** The row holding offset {@code offset} of an indirect block's range. */
    public int rowOf(long offset) {
        long first = startBlockSize * width;
        return offset < first ? 0 : log2(offset / first) + 1;
    }

    /** Rows of an indirect block in {@code row} of its parent (at least {@link #maxDirectRows}). */
    public int indirectRows(int row) {
        return log2(rowBlockSize(row)) - firstRowBits + 1;
    }

    /** Bytes of the "block offset" field of blocks and of the offset in managed heap IDs. */
    public int heapOffsetSize() {
        return (maxHeapBits + 7) / 8;
    }

    /** Bytes of the object length in managed heap IDs (libhdf5's H5HF_hdr_finish_init). */
    public int heapLengthSize() {
        int directOffsetSize = (log2(maxDirectBlockSize) + 7) / 8;
        int managedLimitSize = log2(Long.highestOneBit(maxManagedObjectSize)) / 8 + 1;
        return Math.min(directOffsetSize, managedLimitSize);
    }
}
