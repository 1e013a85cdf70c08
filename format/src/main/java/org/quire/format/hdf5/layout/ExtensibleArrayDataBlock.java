package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Extensible array data block and its pages, specification section VII.C ("Extensible Array
 * Data Block", "Extensible Array Data Block Page").
 *
 * <pre>
 * +--------+---------+-----------+--------------------+----------------------------------+
 * | "EADB" | version | client ID | header address (O) | block offset (array offset size) |
 * |        |   (0)   |           |                    | (see blockOffset)                |
 * +--------+---------+-----------+--------------------+----------------------------------+
 * | elements (only if not paged) | checksum |
 * +------------------------------+----------+
 * paged: the block ends after its checksum and 2^page bits-element pages follow, each
 *        +------------------------------+----------+
 *        | elements x element size      | checksum |
 *        +------------------------------+----------+
 * </pre>
 *
 * Which pages were written is recorded in the owning super block's page bitmap.
 */
public final class ExtensibleArrayDataBlock {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("extensible array data block", "EADB", 0);
    public static final BlockIdentity PAGE =
            BlockIdentity.unsigned("extensible array data block page");

    private final ExtensibleArrayGeometry geometry;
    private final ChunkRecordFormat format;
    private final int superBlock;

    public ExtensibleArrayDataBlock(ExtensibleArrayGeometry geometry, ChunkRecordFormat format,
                                    int superBlock) {
        this.geometry = geometry;
        this.format = format;
        this.superBlock = superBlock;
    }

    public boolean isPaged() {
        return geometry.pagesPerDataBlock(superBlock) > 0;
    }

    /** Bytes of the block itself, through its checksum. */
    public int prefixSize() {
        long elements = isPaged() ? 0 : geometry.dataBlockElements(superBlock) * format.entrySize();
        return (int) (IDENTITY.prefixLength() + ArrayBlockPrefix.SIZE + geometry.arrayOffsetSize()
                + elements + MetadataValidator.CHECKSUM_SIZE);
    }

    public int pageSize() {
        return (int) (geometry.pageElements() * format.entrySize()) + MetadataValidator.CHECKSUM_SIZE;
    }

    /** Bytes to reserve for the block and all its pages. */
    public long totalSize() {
        return prefixSize() + geometry.pagesPerDataBlock(superBlock) * pageSize();
    }

    public long pageAddress(long blockAddress, long page) {
        return blockAddress + prefixSize() + page * pageSize();
    }

    /**
     * The "block offset" field libhdf5 writes (H5EA.c): the index of the block's first element,
     * except for the data blocks the index block points at directly, where libhdf5 counts the
     * data block's position among all data blocks instead of within its super block. Readers
     * and writers must agree with that value, so Quire writes and expects it too.
     */
    private long blockOffset(long dataBlock) {
        long position = superBlock < geometry.firstIndexedSuperBlock()
                ? geometry.startDataBlock(superBlock) + dataBlock : dataBlock;
        return geometry.startElement(superBlock) + position * geometry.dataBlockElements(superBlock);
    }

    /** The block; {@code elements} are ignored (may be null) when it is paged. */
    public byte[] encode(long headerAddress, long dataBlock, ChunkRecord[] elements) {
        LittleEndianWriter out = new LittleEndianWriter(prefixSize());
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version());
        ArrayBlockPrefix.encode(out, format, headerAddress);
        out.putUnsigned(blockOffset(dataBlock), geometry.arrayOffsetSize());
        if (!isPaged()) {
            for (ChunkRecord element : elements) {
                format.encode(element, out);
            }
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    public byte[] encodePage(ChunkRecord[] elements) {
        LittleEndianWriter out = new LittleEndianWriter(pageSize());
        for (ChunkRecord element : elements) {
            format.encode(element, out);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    /** Reads and checks the block; returns its elements, or null when it is paged. */
    public ChunkRecord[] read(BlockFile file, long address, long headerAddress, long dataBlock,
                              long unfilteredChunkSize) throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, prefixSize(), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        ArrayBlockPrefix.check(in, format, headerAddress);
        long offsetAt = in.absolutePosition();
        long offset = in.getUnsigned(geometry.arrayOffsetSize(), "block offset");
        if (offset != blockOffset(dataBlock)) {
            throw in.corrupt(offsetAt, "block offset", Long.toString(blockOffset(dataBlock)),
                    Long.toString(offset));
        }
        return isPaged() ? null
                : readElements(in, (int) geometry.dataBlockElements(superBlock), unfilteredChunkSize);
    }

    public ChunkRecord[] readPage(BlockFile file, long blockAddress, long page,
                                  long unfilteredChunkSize) throws IOException {
        long address = pageAddress(blockAddress, page);
        LittleEndianReader in = file.reader(address, PAGE.structure(),
                file.readVerified(address, pageSize(), PAGE));
        return readElements(in, (int) geometry.pageElements(), unfilteredChunkSize);
    }

    private ChunkRecord[] readElements(LittleEndianReader in, int count, long unfilteredChunkSize)
            throws IOException {
        ChunkRecord[] elements = new ChunkRecord[count];
        for (int i = 0; i < count; i++) {
            elements[i] = format.decode(in, unfilteredChunkSize);
        }
        return elements;
    }
}
