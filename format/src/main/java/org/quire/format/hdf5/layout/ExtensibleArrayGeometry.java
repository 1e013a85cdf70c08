package org.quire.format.hdf5.layout;

/**
 * Where element {@code i} of an extensible array lives, derived from the creation parameters
 * (specification section VII.C, and libhdf5's H5EAhdr.c which fixes the block sizes).
 *
 * <p>The first {@code indexBlockElements} elements sit in the index block. The rest fill super
 * blocks {@code s = 0, 1, ...}: super block {@code s} has {@code 2^floor(s/2)} data blocks of
 * {@code dataBlockMinElements * 2^floor((s+1)/2)} elements each. The index block points directly
 * at the data blocks of the first super blocks (the first {@code 2 * (minPointers - 1)} data
 * blocks); from super block {@code 2 * log2(minPointers)} on, it points at super blocks, which
 * point at their data blocks. A data block of more than {@code 2^pageBits} elements is stored in
 * pages of {@code 2^pageBits} elements.
 */
public final class ExtensibleArrayGeometry {

    private final ChunkIndexParameters.ExtensibleArray parameters;
    private final int superBlockCount;
    private final long[] dataBlocks;
    private final long[] dataBlockElements;
    private final long[] startElement;
    private final long[] startDataBlock;
    private final int firstIndexedSuperBlock;

    public ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray parameters) {
        this.parameters = parameters;
        int minElementsLog2 = Integer.numberOfTrailingZeros(parameters.dataBlockMinElements());
        this.superBlockCount = 1 + parameters.maxBits() - minElementsLog2;
        this.dataBlocks = new long[superBlockCount];
        this.dataBlockElements = new long[superBlockCount];
        this.startElement = new long[superBlockCount];
        this.startDataBlock = new long[superBlockCount];
        long element = 0;
        long block = 0;
        for (int s = 0; s < superBlockCount; s++) {
            dataBlocks[s] = 1L << (s / 2);
            dataBlockElements[s] = (long) parameters.dataBlockMinElements() << ((s + 1) / 2);
            startElement[s] = element;
            startDataBlock[s] = block;
            element += dataBlocks[s] * dataBlockElements[s];
            block += dataBlocks[s];
        }
        this.firstIndexedSuperBlock =
                2 * Integer.numberOfTrailingZeros(parameters.superBlockMinDataPointers());
    }

    /**
     * Whether the parameters are ones this geometry handles: powers of two, within the limits
     * libhdf5 enforces.
     */
    public static boolean isValid(ChunkIndexParameters.ExtensibleArray p) {
        return p.maxBits() > 0 && p.maxBits() <= 64 && p.indexBlockElements() > 0
                && Integer.bitCount(p.dataBlockMinElements()) == 1
                && Integer.bitCount(p.superBlockMinDataPointers()) == 1
                && p.superBlockMinDataPointers() >= 2
                && Integer.numberOfTrailingZeros(p.dataBlockMinElements()) < p.maxBits()
                && p.dataBlockPageBits() > 0 && p.dataBlockPageBits() <= p.maxBits();
    }

    public ChunkIndexParameters.ExtensibleArray parameters() {
        return parameters;
    }

    public int superBlockCount() {
        return superBlockCount;
    }

    /** Data block addresses held directly by the index block. */
    public int indexBlockDataBlockAddresses() {
        return 2 * (parameters.superBlockMinDataPointers() - 1);
    }

    /** Super block addresses held by the index block. */
    public int indexBlockSuperBlockAddresses() {
        return superBlockCount - firstIndexedSuperBlock;
    }

    /** The first super block whose address the index block holds. */
    public int firstIndexedSuperBlock() {
        return firstIndexedSuperBlock;
    }

    public long dataBlocks(int superBlock) {
        return dataBlocks[superBlock];
    }

    public long dataBlockElements(int superBlock) {
        return dataBlockElements[superBlock];
    }

    /** Index of the first element of super block {@code s}, not counting index block elements. */
    public long startElement(int superBlock) {
        return startElement[superBlock];
    }

    /** Position of super block {@code s}'s first data block among all data blocks. */
    public long startDataBlock(int superBlock) {
        return startDataBlock[superBlock];
    }

    /** Bytes of the "array offset" fields: enough for {@code maxBits} bits. */
    public int arrayOffsetSize() {
        return (parameters.maxBits() + 7) / 8;
    }

    public long pageElements() {
        return 1L << parameters.dataBlockPageBits();
    }

    /** Pages per data block of super block {@code s}, 0 if its data blocks are not paged. */
    public long pagesPerDataBlock(int superBlock) {
        long elements = dataBlockElements[superBlock];
        return elements > pageElements() ? elements / pageElements() : 0;
    }

    /** The largest element index plus one. */
    public long capacity() {
        return parameters.maxBits() >= 63 ? Long.MAX_VALUE
                : parameters.indexBlockElements() + (1L << parameters.maxBits());
    }

    /**
     * Where element {@code index} is: in the index block ({@code superBlock} -1,
     * {@code element} the slot), or in data block {@code dataBlock} of super block
     * {@code superBlock} at {@code element}.
     */
    public Location locate(long index) {
        if (index < parameters.indexBlockElements()) {
            return new Location(-1, 0, index);
        }
        long rest = index - parameters.indexBlockElements();
        int superBlock = 63 - Long.numberOfLeadingZeros(rest / parameters.dataBlockMinElements() + 1);
        long local = rest - startElement[superBlock];
        return new Location(superBlock, local / dataBlockElements[superBlock],
                local % dataBlockElements[superBlock]);
    }

    public record Location(int superBlock, long dataBlock, long element) {
        public boolean inIndexBlock() {
            return superBlock < 0;
        }
    }
}
