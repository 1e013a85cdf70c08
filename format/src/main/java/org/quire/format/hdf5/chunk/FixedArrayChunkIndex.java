package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
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
 */
public final class FixedArrayChunkIndex implements ChunkIndex {

    /** Most entries Quire handles in one fixed array (its pages are numbered by int). */
    static final long MAX_ENTRIES = Integer.MAX_VALUE;

    private final BlockFile file;
    private final ChunkGrid grid;
    private final long headerAddress;
    private final FixedArrayHeader header;
    private final FixedArrayDataBlock dataBlock;
    private final long unfilteredChunkSize;

    /** Entries of an unpaged block, or null until read. */
    private ChunkRecord[] entries;
    /** Page bitmap of a paged block, or null until read. */
    private byte[] pageBitmap;
    private final Map<Integer, ChunkRecord[]> pages = new HashMap<>();
    private final TreeSet<Integer> dirtyPages = new TreeSet<>();
    private boolean dataBlockDirty;
    private boolean headerDirty;

    private FixedArrayChunkIndex(BlockFile file, ChunkGrid grid, long headerAddress,
                                 FixedArrayHeader header, long unfilteredChunkSize) {
        this.file = file;
        this.grid = grid;
        this.headerAddress = headerAddress;
        this.header = header;
        this.dataBlock = new FixedArrayDataBlock(header);
        this.unfilteredChunkSize = unfilteredChunkSize;
    }

    /** Allocates a new, empty index for every chunk of {@code grid}'s maximum shape. */
    static FixedArrayChunkIndex create(BlockFile file, ChunkRecordFormat format, ChunkGrid grid,
                                       long unfilteredChunkSize) {
        long entryCount = grid.maxChunkCount();
        int pageBits = ChunkIndexParameters.FixedArray.DEFAULT.pageBits();
        long headerAddress = file.allocate(FixedArrayHeader.SIZE);
        FixedArrayDataBlock sizing = new FixedArrayDataBlock(
                new FixedArrayHeader(format, pageBits, entryCount, 0));
        long dataBlockAddress = file.allocate(sizing.totalSize());
        FixedArrayChunkIndex index = new FixedArrayChunkIndex(file, grid, headerAddress,
                new FixedArrayHeader(format, pageBits, entryCount, dataBlockAddress),
                unfilteredChunkSize);
        if (index.dataBlock.isPaged()) {
            index.pageBitmap = new byte[PageBitmap.size(index.dataBlock.pageCount())];
        } else {
            index.entries = new ChunkRecord[(int) entryCount];
            Arrays.fill(index.entries, ChunkRecord.UNWRITTEN);
        }
        index.dataBlockDirty = true;
        index.headerDirty = true;
        return index;
    }

    /** Opens the index at {@code address} of a dataset whose chunks {@code grid} numbers. */
    static FixedArrayChunkIndex open(BlockFile file, long address, ChunkGrid grid,
                                     long unfilteredChunkSize, boolean filtered)
            throws IOException {
        long expectedEntries = grid.maxChunkCount();
        FixedArrayHeader header = FixedArrayHeader.read(file, address);
        String structure = FixedArrayHeader.IDENTITY.structure();
        if (header.entryCount() != expectedEntries) {
            throw new CorruptFileException(file.path(), address, structure,
                    "maximum number of entries", expectedEntries + " (chunks of the dataspace)",
                    Long.toString(header.entryCount()));
        }
        if (header.entryCount() > MAX_ENTRIES) {
            throw new UnsupportedFormatException(file.path(), "fixed array at offset " + address
                    + " has " + header.entryCount() + " entries; supported: " + MAX_ENTRIES);
        }
        if (header.format().filtered() != filtered) {
            throw new CorruptFileException(file.path(), address, structure, "client ID",
                    filtered ? "1 (filtered chunks)" : "0 (unfiltered chunks)",
                    Integer.toString(header.format().clientId()));
        }
        return new FixedArrayChunkIndex(file, grid, address, header, unfilteredChunkSize);
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
        return get(grid.linearIndex(scaled));
    }

    private ChunkRecord get(long index) throws IOException {
        if (!dataBlock.isPaged()) {
            return loadEntries()[(int) index];
        }
        int page = (int) (index / dataBlock.pageEntries());
        ChunkRecord[] records = pages.get(page);
        if (records == null) {
            if (!PageBitmap.get(loadBitmap(), page)) {
                return ChunkRecord.UNWRITTEN;
            }
            records = dataBlock.readPage(file, page, unfilteredChunkSize);
            pages.put(page, records);
        }
        return records[(int) (index % dataBlock.pageEntries())];
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        long index = grid.linearIndex(scaled);
        if (!dataBlock.isPaged()) {
            loadEntries()[(int) index] = record;
            dataBlockDirty = true;
            return;
        }
        int page = (int) (index / dataBlock.pageEntries());
        get(index); // loads the page if it was written before
        if (!pages.containsKey(page)) {
            ChunkRecord[] fresh = new ChunkRecord[dataBlock.entriesInPage(page)];
            Arrays.fill(fresh, ChunkRecord.UNWRITTEN);
            pages.put(page, fresh);
        }
        pages.get(page)[(int) (index % dataBlock.pageEntries())] = record;
        dirtyPages.add(page);
    }

    @Override
    public void flush() throws IOException {
        for (int page : dirtyPages) {
            file.write(dataBlock.pageAddress(page), dataBlock.encodePage(pages.get(page)));
            if (!PageBitmap.get(loadBitmap(), page)) {
                PageBitmap.set(pageBitmap, page);
                dataBlockDirty = true;
            }
        }
        dirtyPages.clear();
        if (dataBlockDirty) {
            file.write(header.dataBlockAddress(),
                    dataBlock.encode(headerAddress, entries, pageBitmap));
            dataBlockDirty = false;
        }
        if (headerDirty) {
            file.write(headerAddress, header.encode());
            headerDirty = false;
        }
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (!dataBlock.isPaged()) {
            grid.forEachWritten(loadEntries(), 0, visitor);
            return;
        }
        // Pages written before (bitmap) and pages changed since (in memory), in order.
        TreeSet<Integer> written = new TreeSet<>(pages.keySet());
        byte[] bitmap = loadBitmap();
        for (int b = 0; b < bitmap.length; b++) {
            if (bitmap[b] == 0) {
                continue; // eight pages never written
            }
            for (int page = b * 8; page < Math.min(b * 8 + 8, dataBlock.pageCount()); page++) {
                if (PageBitmap.get(bitmap, page)) {
                    written.add(page);
                }
            }
        }
        for (int page : written) {
            ChunkRecord[] records = pages.get(page);
            if (records == null) {
                records = dataBlock.readPage(file, page, unfilteredChunkSize);
            }
            grid.forEachWritten(records, page * dataBlock.pageEntries(), visitor);
        }
    }

    private ChunkRecord[] loadEntries() throws IOException {
        if (entries == null) {
            entries = dataBlock.read(file, headerAddress, unfilteredChunkSize).records();
        }
        return entries;
    }

    private byte[] loadBitmap() throws IOException {
        if (pageBitmap == null) {
            pageBitmap = dataBlock.read(file, headerAddress, unfilteredChunkSize).pageBitmap();
        }
        return pageBitmap;
    }
}
