package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;
import org.quire.format.hdf5.layout.PageBitmap;

/**
 * Fixed array chunk index (layout index type 3): one entry per chunk the dataset can ever hold.
 * The header and the data block with all its pages are allocated when the dataset is created
 * and never move; only the pages that hold a written chunk are ever written.
 *
 * <p>Blocks are metadata cache entries: the header and the data block (an unpaged array's
 * entries, or a paged one's page bitmap) are held for the index's life, pages only while used.
 * Flush dependencies: header → data block → each page (a page's bit is set when the page is
 * created, so the data block waits for it) → the chunks their entries point at.
 */
public final class FixedArrayChunkIndex implements ChunkIndex {

    /**
     * Most entries of a block read in one piece, an unpaged data block or a page, with its
     * checksum: libhdf5 makes pages of 1,024 entries, a header may ask for up to 2^32.
     */
    static final long MAX_BLOCK_ENTRIES = 1 << 20;
    /**
     * Most pages: the page bitmap is held while the index is open, at most 16 MiB for 2^37
     * chunks in pages of 1,024. Only the pages that hold a written chunk are ever read, so a
     * sparse array of any count within this costs memory per page used, not per chunk.
     */
    static final long MAX_PAGES = 1L << 27;

    private final IndexBlocks blocks;
    private final ChunkGrid grid;
    private final long headerAddress;
    private final FixedArrayHeader header;
    private final FixedArrayDataBlock dataBlock;
    private final long unfilteredChunkSize;
    private final BlockEntry<FixedArrayDataBlock.Contents> contents;

    private FixedArrayChunkIndex(IndexBlocks blocks, ChunkGrid grid, long headerAddress,
                                 FixedArrayHeader header, long unfilteredChunkSize,
                                 FixedArrayDataBlock.Contents created) throws IOException {
        this.blocks = blocks;
        this.grid = grid;
        this.headerAddress = headerAddress;
        this.header = header;
        this.dataBlock = new FixedArrayDataBlock(header);
        this.unfilteredChunkSize = unfilteredChunkSize;
        BlockEntry.Encoder<FixedArrayDataBlock.Contents> encoder =
                c -> dataBlock.encode(headerAddress, c.records(), c.pageBitmap());
        if (created != null) {
            BlockEntry<FixedArrayHeader> headerEntry = blocks.create(headerAddress,
                    FixedArrayHeader.SIZE, header, FixedArrayHeader::encode);
            this.contents = blocks.create(header.dataBlockAddress(), blockImageSize(), created,
                    encoder);
            blocks.dependsOn(headerEntry, contents);
        } else {
            BlockFile file = blocks.file();
            this.contents = blocks.protect(header.dataBlockAddress(), blockImageSize(),
                    () -> dataBlock.read(file, headerAddress, unfilteredChunkSize), encoder);
        }
    }

    private int blockImageSize() {
        return dataBlock.isPaged() ? dataBlock.prefixSize() : (int) dataBlock.totalSize();
    }

    /** Allocates a new, empty index for every chunk of {@code grid}'s maximum shape. */
    static FixedArrayChunkIndex create(IndexBlocks blocks, ChunkRecordFormat format,
                                       ChunkGrid grid, long unfilteredChunkSize)
            throws IOException {
        BlockFile file = blocks.file();
        long entryCount = grid.maxChunkCount();
        int pageBits = ChunkIndexParameters.FixedArray.DEFAULT.pageBits();
        String beyond = beyondLimits(entryCount, pageBits);
        if (beyond != null) {
            throw new IllegalArgumentException(entryCount + " chunks need " + beyond
                    + ", more than a fixed array index holds here (" + LIMITS + ")");
        }
        long headerAddress = file.allocate(FixedArrayHeader.SIZE);
        FixedArrayDataBlock sizing = new FixedArrayDataBlock(
                new FixedArrayHeader(format, pageBits, entryCount, 0));
        long dataBlockAddress = file.allocate(sizing.totalSize());
        FixedArrayDataBlock.Contents empty;
        if (sizing.isPaged()) {
            empty = new FixedArrayDataBlock.Contents(null,
                    new byte[PageBitmap.size(sizing.pageCount())]);
        } else {
            ChunkRecord[] entries = new ChunkRecord[(int) entryCount];
            Arrays.fill(entries, ChunkRecord.UNWRITTEN);
            empty = new FixedArrayDataBlock.Contents(entries, null);
        }
        return new FixedArrayChunkIndex(blocks, grid, headerAddress,
                new FixedArrayHeader(format, pageBits, entryCount, dataBlockAddress),
                unfilteredChunkSize, empty);
    }

    /** Opens the index at {@code address} of a dataset whose chunks {@code grid} numbers. */
    static FixedArrayChunkIndex open(IndexBlocks blocks, long address, ChunkGrid grid,
                                     long unfilteredChunkSize, boolean filtered)
            throws IOException {
        BlockFile file = blocks.file();
        long expectedEntries = grid.maxChunkCount();
        FixedArrayHeader header = FixedArrayHeader.read(file, address);
        String structure = FixedArrayHeader.IDENTITY.structure();
        if (header.entryCount() != expectedEntries) {
            throw new CorruptFileException(file.path(), address, structure,
                    "maximum number of entries", expectedEntries + " (chunks of the dataspace)",
                    Long.toString(header.entryCount()));
        }
        String beyond = beyondLimits(header.entryCount(), header.pageBits());
        if (beyond != null) {
            throw new UnsupportedFormatException(file.path(), structure, address,
                    header.entryCount() + " entries in " + beyond, LIMITS);
        }
        if (header.format().filtered() != filtered) {
            throw new CorruptFileException(file.path(), address, structure, "client ID",
                    filtered ? "1 (filtered chunks)" : "0 (unfiltered chunks)",
                    Integer.toString(header.format().clientId()));
        }
        return new FixedArrayChunkIndex(blocks, grid, address, header, unfilteredChunkSize,
                null);
    }

    private static final String LIMITS = "at most " + MAX_BLOCK_ENTRIES
            + " entries per page or unpaged data block, at most " + MAX_PAGES + " pages";

    /**
     * The blocks {@code entries} entries in pages of 2^{@code pageBits} take, if beyond
     * {@link #MAX_BLOCK_ENTRIES} or {@link #MAX_PAGES}; null if within.
     */
    static String beyondLimits(long entries, int pageBits) {
        long pageEntries = 1L << pageBits;
        if (entries <= pageEntries) {
            return entries > MAX_BLOCK_ENTRIES ? "one unpaged data block" : null;
        }
        long pages = (entries - 1) / pageEntries + 1;
        if (pageEntries > MAX_BLOCK_ENTRIES || pages > MAX_PAGES) {
            return pages + " pages of " + pageEntries;
        }
        return null;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return new ChunkIndexParameters.FixedArray(header.pageBits());
    }

    @Override
    public long address() {
        return headerAddress;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        long index = grid.linearIndex(scaled);
        if (!dataBlock.isPaged()) {
            return contents.value().records()[(int) index];
        }
        int page = (int) (index / dataBlock.pageEntries());
        if (!PageBitmap.get(contents.value().pageBitmap(), page)) {
            return ChunkRecord.UNWRITTEN;
        }
        BlockEntry<ChunkRecord[]> entry = protectPage(page);
        try {
            return entry.value()[(int) (index % dataBlock.pageEntries())];
        } finally {
            blocks.unprotect(entry);
        }
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        long index = grid.linearIndex(scaled);
        if (!dataBlock.isPaged()) {
            contents.value().records()[(int) index] = record;
            blocks.changed(contents);
            blocks.dependsOnChunk(contents, record);
            return;
        }
        int page = (int) (index / dataBlock.pageEntries());
        byte[] bitmap = contents.value().pageBitmap();
        BlockEntry<ChunkRecord[]> entry;
        if (PageBitmap.get(bitmap, page)) {
            entry = protectPage(page);
        } else {
            ChunkRecord[] fresh = new ChunkRecord[dataBlock.entriesInPage(page)];
            Arrays.fill(fresh, ChunkRecord.UNWRITTEN);
            entry = blocks.create(dataBlock.pageAddress(page), dataBlock.pageSize(page), fresh,
                    dataBlock::encodePage);
            PageBitmap.set(bitmap, page);
            blocks.changed(contents);
        }
        try {
            entry.value()[(int) (index % dataBlock.pageEntries())] = record;
            blocks.changed(entry);
            blocks.dependsOn(contents, entry);
            blocks.dependsOnChunk(entry, record);
        } finally {
            blocks.unprotect(entry);
        }
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (!dataBlock.isPaged()) {
            grid.forEachWritten(contents.value().records(), 0, visitor);
            return;
        }
        byte[] bitmap = contents.value().pageBitmap();
        for (int page = 0; page < dataBlock.pageCount(); page++) {
            if (bitmap[page / 8] == 0) {
                page += 7 - page % 8; // eight pages never written
                continue;
            }
            if (PageBitmap.get(bitmap, page)) {
                BlockEntry<ChunkRecord[]> entry = protectPage(page);
                try {
                    grid.forEachWritten(entry.value(), page * dataBlock.pageEntries(), visitor);
                } finally {
                    blocks.unprotect(entry);
                }
            }
        }
    }

    private BlockEntry<ChunkRecord[]> protectPage(int page) throws IOException {
        BlockFile file = blocks.file();
        return blocks.protect(dataBlock.pageAddress(page), dataBlock.pageSize(page),
                () -> dataBlock.readPage(file, page, unfilteredChunkSize),
                dataBlock::encodePage);
    }
}
