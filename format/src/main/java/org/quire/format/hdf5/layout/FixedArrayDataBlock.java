package org.quire.format.hdf5.layout;

import java.io.IOException;

/**
 * Fixed array data block and its pages, specification section VII.B ("Fixed Array Data Block",
 * "Fixed Array Data Block Page").
 *
 * <pre>
 * unpaged (entries <= 2^page bits):
 * +--------+---------+-----------+--------------------+------------------------+----------+
 * | "FADB" | version | client ID | header address (O) | entries x element size | checksum |
 * +--------+---------+-----------+--------------------+------------------------+----------+
 * paged:
 * +--------+---------+-----------+--------------------+---------------------------+----------+
 * | "FADB" | version | client ID | header address (O) | page bitmap (1 bit/page,  | checksum |
 * |        |         |           |                    | first page = high bit)    |          |
 * +--------+---------+-----------+--------------------+---------------------------+----------+
 * followed directly by the pages, each 2^page bits entries (the last one: the rest) and a
 * checksum:   +------------------------------+----------+
 *             | entries x element size       | checksum |
 *             +------------------------------+----------+
 * </pre>
 *
 * A page whose bitmap bit is clear was never written; all its chunks are unwritten. The space
 * of every page is reserved with the block, so page addresses never change.
 */
public final class FixedArrayDataBlock {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("fixed array data block", "FADB", 0);
    public static final BlockIdentity PAGE = BlockIdentity.unsigned("fixed array data block page");

    private final FixedArrayHeader header;
    private final long pageEntries;
    private final int pageCount;

    public FixedArrayDataBlock(FixedArrayHeader header) {
        this.header = header;
        this.pageEntries = 1L << header.pageBits();
        long count = header.entryCount();
        this.pageCount = count > pageEntries ? (int) ((count + pageEntries - 1) / pageEntries) : 0;
    }

    public boolean isPaged() {
        return pageCount > 0;
    }

    public int pageCount() {
        return pageCount;
    }

    /** Entries per page (the last page may hold fewer). */
    public long pageEntries() {
        return pageEntries;
    }

    private int bitmapSize() {
        return PageBitmap.size(pageCount);
    }

    /** Bytes of the block itself: everything up to and including its checksum. */
    public int prefixSize() {
        return IDENTITY.prefixLength() + ArrayBlockPrefix.SIZE + bitmapSize()
                + MetadataValidator.CHECKSUM_SIZE;
    }

    private long fullPageSize() {
        return pageEntries * header.format().entrySize() + MetadataValidator.CHECKSUM_SIZE;
    }

    /** Bytes to reserve for the block and all its pages. */
    public long totalSize() {
        long entries = header.entryCount() * header.format().entrySize();
        return prefixSize() + entries + (long) pageCount * MetadataValidator.CHECKSUM_SIZE;
    }

    public long pageAddress(int page) {
        return header.dataBlockAddress() + prefixSize() + page * fullPageSize();
    }

    /** Bytes of page {@code page}: its entries and checksum. */
    public int pageSize(int page) {
        return entriesInPage(page) * header.format().entrySize() + MetadataValidator.CHECKSUM_SIZE;
    }

    public int entriesInPage(int page) {
        return (int) Math.min(pageEntries, header.entryCount() - page * pageEntries);
    }

    /** The block of an unpaged array holding {@code records}, or a paged array's prefix. */
    public byte[] encode(long headerAddress, ChunkRecord[] records, byte[] pageBitmap) {
        LittleEndianWriter out = new LittleEndianWriter(isPaged() ? prefixSize()
                : (int) totalSize());
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version());
        ArrayBlockPrefix.encode(out, header.format(), headerAddress);
        if (isPaged()) {
            out.putBytes(pageBitmap);
        } else {
            for (ChunkRecord record : records) {
                header.format().encode(record, out);
            }
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    public byte[] encodePage(ChunkRecord[] records) {
        LittleEndianWriter out = new LittleEndianWriter(
                records.length * header.format().entrySize() + MetadataValidator.CHECKSUM_SIZE);
        for (ChunkRecord record : records) {
            header.format().encode(record, out);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    /** Reads the block; for an unpaged array the entries, for a paged one the page bitmap. */
    public Contents read(BlockFile file, long headerAddress, long unfilteredChunkSize)
            throws IOException {
        long address = header.dataBlockAddress();
        int size = isPaged() ? prefixSize() : (int) Math.min(totalSize(), Integer.MAX_VALUE);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, size, IDENTITY));
        in.skip(IDENTITY.prefixLength());
        ArrayBlockPrefix.check(in, header.format(), headerAddress);
        if (isPaged()) {
            return new Contents(null, in.getBytes(bitmapSize(), "page bitmap"));
        }
        return new Contents(readRecords(in, (int) header.entryCount(), unfilteredChunkSize),
                null);
    }

    public ChunkRecord[] readPage(BlockFile file, int page, long unfilteredChunkSize)
            throws IOException {
        int entries = entriesInPage(page);
        long address = pageAddress(page);
        LittleEndianReader in = file.reader(address, PAGE.structure(), file.readVerified(address,
                pageSize(page), PAGE));
        return readRecords(in, entries, unfilteredChunkSize);
    }

    private ChunkRecord[] readRecords(LittleEndianReader in, int count, long unfilteredChunkSize)
            throws IOException {
        ChunkRecord[] records = new ChunkRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = header.format().decode(in, unfilteredChunkSize);
        }
        return records;
    }

    /** An unpaged block's entries, or a paged block's page bitmap. */
    public record Contents(ChunkRecord[] records, byte[] pageBitmap) {
    }

}
