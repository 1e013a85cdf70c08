package org.quire.format.hdf5.layout;

import java.io.IOException;

import org.quire.format.UnsupportedFormatException;

/**
 * Fractal heap header, specification section III.G ("Fractal Heap Header"): where a heap of
 * variable-size objects (dense link or attribute messages) keeps its blocks.
 *
 * <pre>
 * +--------+---------+-------------------+---------------------------+-----------+
 * | "FRHP" | version | heap ID length (2)| I/O filters' length (2)   | flags (1) |
 * |        |   (0)   |                   |                           |           |
 * +--------+---------+-------------------+---------------------------+-----------+
 * | max managed object size (4) | next huge object ID (L) | huge objects v2 B-tree (O)    |
 * | free space in managed blocks (L) | free space manager (O) | managed space (L)         |
 * | allocated managed space (L) | direct block iterator offset (L) | managed objects (L)  |
 * | huge objects size (L) | huge objects (L) | tiny objects size (L) | tiny objects (L)    |
 * +---------------------------------------------------------------------------------------+
 * | table width (2) | starting block size (L) | max direct block size (L)                 |
 * | max heap size, bits (2) | starting rows in root (2) | root block address (O)          |
 * | current rows in root indirect block (2; 0: the root is a direct block)                |
 * | [filtered root direct block size (L), filter mask (4), filter pipeline]  | checksum  |
 * +---------------------------------------------------------------------------------------+
 * flags b0: huge object IDs have wrapped; b1: direct blocks are checksummed.
 * </pre>
 *
 * Quire reads heaps without I/O filters (libhdf5 writes none for links and attributes).
 *
 * @param objects managed, huge and tiny objects in the heap, as the three counts say
 */
public record FractalHeapHeader(int heapIdLength, boolean directBlocksChecksummed,
                                long maxManagedObjectSize, long hugeObjectsBTreeAddress,
                                long objects, FractalHeapDoublingTable table,
                                long rootBlockAddress, int rootIndirectRows) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("fractal heap header", "FRHP", 0);
    public static final int SIZE = IDENTITY.prefixLength() + 2 + 2 + 1 + 4
            + 12 * Addresses.SIZE_OF_LENGTHS + 2 + 8 + 8 + 2 + 2 + Addresses.SIZE_OF_OFFSETS + 2
            + MetadataValidator.CHECKSUM_SIZE;

    private static final int FLAG_DIRECT_BLOCKS_CHECKSUMMED = 0x02;
    /** Heap IDs longer than this are not written by libhdf5 (H5HF_MAX_ID_LEN is 4095). */
    private static final int MAX_HEAP_ID_LENGTH = 0x0fff;

    /** Reads and verifies the header at {@code address}, checking the doubling table. */
    public static FractalHeapHeader read(BlockFile file, long address) throws IOException {
        LittleEndianReader in = file.readVerifiedFields(address, SIZE, IDENTITY);
        long idAt = in.absolutePosition();
        int idLength = in.getUnsignedShort("heap ID length");
        if (idLength < 2 || idLength > MAX_HEAP_ID_LENGTH) {
            throw in.corrupt(idAt, "heap ID length", "2.." + MAX_HEAP_ID_LENGTH,
                    Integer.toString(idLength));
        }
        int filtersLength = in.getUnsignedShort("I/O filters' encoded length");
        if (filtersLength != 0) {
            throw new UnsupportedFormatException(file.path(), "fractal heap header", address,
                    "I/O filters (" + filtersLength + " bytes encoded)", "no I/O filters");
        }
        int flags = in.getUnsignedByte("flags");
        long maxManaged = in.getInt("maximum size of managed objects") & 0xffffffffL;
        in.getLength("next huge object ID");
        long hugeTree = in.getAddress("v2 B-tree address of huge objects");
        in.getLength("free space in managed blocks");
        in.getAddress("managed block free space manager address");
        in.getLength("managed space");
        in.getLength("allocated managed space");
        in.getLength("direct block allocation iterator offset");
        long managedObjects = in.getLength("managed objects");
        in.getLength("size of huge objects");
        long hugeObjects = in.getLength("huge objects");
        in.getLength("size of tiny objects");
        long tinyObjects = in.getLength("tiny objects");
        long tableAt = in.absolutePosition();
        int width = in.getUnsignedShort("table width");
        long startSize = in.getLength("starting block size");
        long maxDirect = in.getLength("maximum direct block size");
        int maxHeapBits = in.getUnsignedShort("maximum heap size");
        in.getUnsignedShort("starting rows in root indirect block");
        long root = in.getAddress("root block address");
        long rowsAt = in.absolutePosition();
        int rootRows = in.getUnsignedShort("current rows in root indirect block");
        FractalHeapDoublingTable table;
        try {
            table = new FractalHeapDoublingTable(width, startSize, maxDirect, maxHeapBits,
                    maxManaged);
        } catch (IllegalArgumentException e) {
            throw in.corrupt(tableAt, "doubling table", "a power-of-two width and block sizes, "
                    + "direct blocks of at most " + FractalHeapDoublingTable.MAX_DIRECT_BLOCK_SIZE
                    + " bytes, a heap of at most 64 bits", e.getMessage());
        }
        if (rootRows > table.maxRootRows()) {
            throw in.corrupt(rowsAt, "current rows in root indirect block",
                    "0.." + table.maxRootRows(), Integer.toString(rootRows));
        }
        return new FractalHeapHeader(idLength, (flags & FLAG_DIRECT_BLOCKS_CHECKSUMMED) != 0,
                maxManaged, hugeTree, managedObjects + hugeObjects + tinyObjects, table, root,
                rootRows);
    }
}
