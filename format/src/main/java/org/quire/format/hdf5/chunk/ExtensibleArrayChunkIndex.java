package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.ExtensibleArrayDataBlock;
import org.quire.format.hdf5.layout.ExtensibleArrayGeometry;
import org.quire.format.hdf5.layout.ExtensibleArrayHeader;
import org.quire.format.hdf5.layout.ExtensibleArrayIndexBlock;
import org.quire.format.hdf5.layout.ExtensibleArraySuperBlock;

/**
 * Extensible array chunk index (layout index type 4), used for datasets with exactly one
 * unlimited dimension. Super blocks, data blocks and their pages are allocated at the end of
 * the file the first time a chunk lands in them and never move; the header and index block are
 * allocated with the dataset.
 *
 * <p>Blocks are metadata cache entries: the header and the index block are held for the
 * index's life, super blocks, data blocks and pages only while a lookup passes them. Flush
 * dependencies follow the pointers: header → index block → super blocks and the data blocks it
 * points at directly → (super block) its data blocks and, through its page bitmap, their pages
 * → the chunks their elements point at.
 */
public final class ExtensibleArrayChunkIndex implements ChunkIndex {

    private final IndexBlocks blocks;
    private final ChunkGrid grid;
    private final long headerAddress;
    private final ExtensibleArrayGeometry geometry;
    private final ChunkRecordFormat format;
    private final long unfilteredChunkSize;
    private ExtensibleArrayHeader.Statistics statistics;
    private long indexBlockAddress;
    /** The header of a writable index (its value is this index), null when read only. */
    private BlockEntry<ExtensibleArrayChunkIndex> header;
    /** Null while the file's header says there is none. */
    private BlockEntry<ExtensibleArrayIndexBlock> indexBlock;

    private ExtensibleArrayChunkIndex(IndexBlocks blocks, ChunkGrid grid, long headerAddress,
                                      ExtensibleArrayGeometry geometry, ChunkRecordFormat format,
                                      long unfilteredChunkSize) {
        this.blocks = blocks;
        this.grid = grid;
        this.headerAddress = headerAddress;
        this.geometry = geometry;
        this.format = format;
        this.unfilteredChunkSize = unfilteredChunkSize;
    }

    /** Allocates a new, empty index with libhdf5's default parameters. */
    static ExtensibleArrayChunkIndex create(IndexBlocks blocks, ChunkRecordFormat format,
                                            ChunkGrid grid, long unfilteredChunkSize)
            throws IOException {
        BlockFile file = blocks.file();
        ExtensibleArrayGeometry geometry =
                new ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray.DEFAULT);
        long headerAddress = file.allocate(ExtensibleArrayHeader.SIZE);
        ExtensibleArrayChunkIndex index = new ExtensibleArrayChunkIndex(blocks, grid,
                headerAddress, geometry, format, unfilteredChunkSize);
        index.statistics = new ExtensibleArrayHeader.Statistics(0, 0, 0, 0, 0,
                geometry.parameters().indexBlockElements());
        index.header = blocks.create(headerAddress, ExtensibleArrayHeader.SIZE, index,
                ExtensibleArrayChunkIndex::encodeHeader);
        index.createIndexBlock();
        return index;
    }

    /** Allocates the index block (libhdf5 does so at the first element it stores). */
    private void createIndexBlock() throws IOException {
        int size = ExtensibleArrayIndexBlock.size(geometry, format);
        indexBlockAddress = blocks.file().allocate(size);
        indexBlock = blocks.create(indexBlockAddress, size,
                ExtensibleArrayIndexBlock.empty(geometry), this::encodeIndexBlock);
        blocks.changed(header);
        blocks.dependsOn(header, indexBlock);
    }

    private byte[] encodeHeader() {
        return new ExtensibleArrayHeader(format, geometry.parameters(), statistics,
                indexBlockAddress).encode();
    }

    private byte[] encodeIndexBlock(ExtensibleArrayIndexBlock block) {
        return block.encode(format, headerAddress);
    }

    /**
     * Opens the index at {@code address}; a {@code writable} one holds its header as a cache
     * entry, which changes with its statistics.
     */
    static ExtensibleArrayChunkIndex open(IndexBlocks blocks, long address, ChunkGrid grid,
                                          ChunkIndexParameters.ExtensibleArray expected,
                                          long unfilteredChunkSize, boolean filtered,
                                          boolean writable) throws IOException {
        BlockFile file = blocks.file();
        ExtensibleArrayHeader header = ExtensibleArrayHeader.read(file, address);
        String structure = ExtensibleArrayHeader.IDENTITY.structure();
        if (!header.parameters().equals(expected)) {
            throw new CorruptFileException(file.path(), address, structure,
                    "creation parameters", expected + " (from the data layout message)",
                    header.parameters().toString());
        }
        if (header.format().filtered() != filtered) {
            throw new CorruptFileException(file.path(), address, structure, "client ID",
                    filtered ? "1 (filtered chunks)" : "0 (unfiltered chunks)",
                    Integer.toString(header.format().clientId()));
        }
        ExtensibleArrayGeometry geometry = new ExtensibleArrayGeometry(header.parameters());
        ExtensibleArrayChunkIndex index = new ExtensibleArrayChunkIndex(blocks, grid, address,
                geometry, header.format(), unfilteredChunkSize);
        index.statistics = header.statistics();
        index.indexBlockAddress = header.indexBlockAddress();
        if (writable) {
            index.header = blocks.protect(address, ExtensibleArrayHeader.SIZE, () -> index,
                    ExtensibleArrayChunkIndex::encodeHeader);
        }
        if (Addresses.isDefined(index.indexBlockAddress)) {
            long at = index.indexBlockAddress;
            index.indexBlock = blocks.protect(at,
                    ExtensibleArrayIndexBlock.size(geometry, header.format()),
                    () -> ExtensibleArrayIndexBlock.read(file, at, geometry, header.format(),
                            address, unfilteredChunkSize), index::encodeIndexBlock);
        }
        return index;
    }

    @Override
    public ChunkIndexParameters parameters() {
        return geometry.parameters();
    }

    @Override
    public long address() {
        return headerAddress;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        long index = grid.linearIndex(scaled);
        if (indexBlock == null || index >= geometry.capacity()) {
            return ChunkRecord.UNWRITTEN;
        }
        ExtensibleArrayGeometry.Location at = geometry.locate(index);
        if (at.inIndexBlock()) {
            return indexBlock.value().elements()[(int) at.element()];
        }
        List<BlockEntry<?>> held = new ArrayList<>(3);
        try {
            BlockEntry<ChunkRecord[]> leaf = leaf(at, false, held);
            return leaf == null ? ChunkRecord.UNWRITTEN : leaf.value()[leafElement(at)];
        } finally {
            unprotect(held);
        }
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        long index = grid.linearIndex(scaled);
        if (index >= geometry.capacity()) {
            throw new IllegalArgumentException("chunk " + index + " is beyond the extensible "
                    + "array's capacity of " + geometry.capacity());
        }
        if (indexBlock == null) {
            createIndexBlock();
        }
        ExtensibleArrayGeometry.Location at = geometry.locate(index);
        if (at.inIndexBlock()) {
            indexBlock.value().elements()[(int) at.element()] = record;
            blocks.changed(indexBlock);
            blocks.dependsOnChunk(indexBlock, record);
        } else {
            List<BlockEntry<?>> held = new ArrayList<>(3);
            try {
                BlockEntry<ChunkRecord[]> leaf = leaf(at, true, held);
                leaf.value()[leafElement(at)] = record;
                blocks.changed(leaf);
                blocks.dependsOnChunk(leaf, record);
            } finally {
                unprotect(held);
            }
        }
        if (index >= statistics.maxIndexSet()) {
            statistics = new ExtensibleArrayHeader.Statistics(statistics.superBlocks(),
                    statistics.superBlockBytes(), statistics.dataBlocks(),
                    statistics.dataBlockBytes(), index + 1, statistics.elementsRealized());
            blocks.changed(header);
        }
    }

    private int leafElement(ExtensibleArrayGeometry.Location at) {
        return (int) (at.element() % (geometry.pagesPerDataBlock(at.superBlock()) > 0
                ? geometry.pageElements() : geometry.dataBlockElements(at.superBlock())));
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (indexBlock == null) {
            return;
        }
        grid.forEachWritten(indexBlock.value().elements(), 0, visitor);
        long indexBlockElements = geometry.parameters().indexBlockElements();
        for (int s = 0; s < geometry.superBlockCount(); s++) {
            List<BlockEntry<?>> held = new ArrayList<>();
            try {
                boolean direct = s < geometry.firstIndexedSuperBlock();
                BlockEntry<ExtensibleArraySuperBlock> owner = direct ? null
                        : superBlock(s, false, held);
                if (!direct && owner == null) {
                    continue;
                }
                for (long d = 0; d < geometry.dataBlocks(s); d++) {
                    long first = indexBlockElements + geometry.startElement(s)
                            + d * geometry.dataBlockElements(s);
                    visitDataBlock(s, d, owner, first, visitor);
                }
            } finally {
                unprotect(held);
            }
        }
    }

    private void visitDataBlock(int s, long d, BlockEntry<ExtensibleArraySuperBlock> owner,
                                long first, StoredChunkVisitor visitor) throws IOException {
        List<BlockEntry<?>> held = new ArrayList<>(2);
        try {
            BlockEntry<ChunkRecord[]> block = dataBlock(s, d, owner, false, held);
            if (block == null) {
                return;
            }
            if (block.value() != null) {
                grid.forEachWritten(block.value(), first, visitor);
                return;
            }
            for (long page = 0; page < geometry.pagesPerDataBlock(s); page++) {
                if (owner.value().pageWritten(geometry, d, page)) {
                    BlockEntry<ChunkRecord[]> records = page(s, block.address(), page);
                    try {
                        grid.forEachWritten(records.value(), first + page
                                * geometry.pageElements(), visitor);
                    } finally {
                        blocks.unprotect(records);
                    }
                }
            }
        } finally {
            unprotect(held);
        }
    }

    /**
     * The block holding element {@code at} (an unpaged data block or a page), protected and
     * added to {@code held} with the blocks above it; with {@code create}, made where missing
     * and with the flush dependencies of its path stated; otherwise null where missing.
     */
    private BlockEntry<ChunkRecord[]> leaf(ExtensibleArrayGeometry.Location at, boolean create,
                                           List<BlockEntry<?>> held) throws IOException {
        int s = at.superBlock();
        boolean direct = s < geometry.firstIndexedSuperBlock();
        BlockEntry<ExtensibleArraySuperBlock> owner = direct ? null : superBlock(s, create, held);
        if (!direct && owner == null) {
            return null;
        }
        BlockEntry<ChunkRecord[]> block = dataBlock(s, at.dataBlock(), owner, create, held);
        if (block == null || block.value() != null) {
            return block;
        }
        long page = at.element() / geometry.pageElements();
        ExtensibleArraySuperBlock bitmap = owner.value();
        BlockEntry<ChunkRecord[]> records;
        if (bitmap.pageWritten(geometry, at.dataBlock(), page)) {
            records = page(s, block.address(), page);
        } else if (create) {
            ChunkRecord[] fresh = new ChunkRecord[(int) geometry.pageElements()];
            Arrays.fill(fresh, ChunkRecord.UNWRITTEN);
            ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(geometry, format, s);
            records = blocks.create(layout.pageAddress(block.address(), page), layout.pageSize(),
                    fresh, layout::encodePage);
            bitmap.markPageWritten(geometry, at.dataBlock(), page);
            blocks.changed(owner);
        } else {
            return null;
        }
        held.add(records);
        if (create) {
            blocks.dependsOn(owner, records);
        }
        return records;
    }

    private BlockEntry<ChunkRecord[]> page(int s, long blockAddress, long page)
            throws IOException {
        BlockFile file = blocks.file();
        ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(geometry, format, s);
        return blocks.protect(layout.pageAddress(blockAddress, page), layout.pageSize(),
                () -> layout.readPage(file, blockAddress, page, unfilteredChunkSize),
                layout::encodePage);
    }

    /** Super block {@code s} (which the index block points at), read or created; or null. */
    private BlockEntry<ExtensibleArraySuperBlock> superBlock(int s, boolean create,
                                                             List<BlockEntry<?>> held)
            throws IOException {
        int slot = s - geometry.firstIndexedSuperBlock();
        long[] addresses = indexBlock.value().superBlockAddresses();
        int size = ExtensibleArraySuperBlock.size(geometry, s);
        BlockEntry.Encoder<ExtensibleArraySuperBlock> encoder =
                block -> block.encode(geometry, format, headerAddress);
        BlockEntry<ExtensibleArraySuperBlock> entry;
        if (Addresses.isDefined(addresses[slot])) {
            BlockFile file = blocks.file();
            long address = addresses[slot];
            entry = blocks.protect(address, size, () -> ExtensibleArraySuperBlock.read(file,
                    address, geometry, s, format, headerAddress), encoder);
        } else if (create) {
            entry = blocks.create(blocks.file().allocate(size), size,
                    ExtensibleArraySuperBlock.empty(geometry, s), encoder);
            addresses[slot] = entry.address();
            blocks.changed(indexBlock);
            countBlock(true, size, 0);
        } else {
            return null;
        }
        held.add(entry);
        if (create) {
            blocks.dependsOn(indexBlock, entry);
        }
        return entry;
    }

    /**
     * Data block {@code d} of super block {@code s} (under {@code owner}, or the index block for
     * the first super blocks), read or created; or null. Its value is null when it is paged.
     */
    private BlockEntry<ChunkRecord[]> dataBlock(int s, long d,
                                                BlockEntry<ExtensibleArraySuperBlock> owner,
                                                boolean create, List<BlockEntry<?>> held)
            throws IOException {
        ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(geometry, format, s);
        boolean direct = owner == null;
        if (direct && layout.isPaged()) {
            throw new UnsupportedFormatException(blocks.file().path(), "extensible array",
                    headerAddress, "paged data blocks the index block points at directly",
                    "unpaged direct data blocks");
        }
        long[] addresses = direct ? indexBlock.value().dataBlockAddresses()
                : owner.value().dataBlockAddresses();
        int slot = (int) (direct ? geometry.startDataBlock(s) + d : d);
        BlockEntry<?> parent = direct ? indexBlock : owner;
        BlockEntry.Encoder<ChunkRecord[]> encoder =
                elements -> layout.encode(headerAddress, d, elements);
        BlockEntry<ChunkRecord[]> entry;
        if (Addresses.isDefined(addresses[slot])) {
            BlockFile file = blocks.file();
            long address = addresses[slot];
            entry = blocks.protect(address, layout.prefixSize(), () -> layout.read(file,
                    address, headerAddress, d, unfilteredChunkSize), encoder);
        } else if (create) {
            ChunkRecord[] elements = null;
            if (!layout.isPaged()) {
                elements = new ChunkRecord[(int) geometry.dataBlockElements(s)];
                Arrays.fill(elements, ChunkRecord.UNWRITTEN);
            }
            entry = blocks.create(blocks.file().allocate(layout.totalSize()),
                    layout.prefixSize(), elements, encoder);
            addresses[slot] = entry.address();
            blocks.changed(parent);
            countBlock(false, layout.totalSize(), geometry.dataBlockElements(s));
        } else {
            return null;
        }
        held.add(entry);
        if (create) {
            blocks.dependsOn(parent, entry);
        }
        return entry;
    }

    private void unprotect(List<BlockEntry<?>> held) throws IOException {
        for (int i = held.size() - 1; i >= 0; i--) {
            blocks.unprotect(held.get(i));
        }
    }

    private void countBlock(boolean superBlock, long bytes, long elements) {
        ExtensibleArrayHeader.Statistics s = statistics;
        statistics = superBlock
                ? new ExtensibleArrayHeader.Statistics(s.superBlocks() + 1,
                        s.superBlockBytes() + bytes, s.dataBlocks(), s.dataBlockBytes(),
                        s.maxIndexSet(), s.elementsRealized())
                : new ExtensibleArrayHeader.Statistics(s.superBlocks(), s.superBlockBytes(),
                        s.dataBlocks() + 1, s.dataBlockBytes() + bytes, s.maxIndexSet(),
                        s.elementsRealized() + elements);
        blocks.changed(header);
    }
}
