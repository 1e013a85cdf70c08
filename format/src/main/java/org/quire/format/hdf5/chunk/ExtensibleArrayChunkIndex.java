package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
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
 */
public final class ExtensibleArrayChunkIndex implements ChunkIndex {

    private final BlockFile file;
    private final ChunkGrid grid;
    private final long headerAddress;
    private final ExtensibleArrayGeometry geometry;
    private final ChunkRecordFormat format;
    private final long unfilteredChunkSize;
    private ExtensibleArrayHeader.Statistics statistics;
    private long indexBlockAddress;
    private ExtensibleArrayIndexBlock indexBlock;
    private final Map<Integer, SuperBlockState> superBlocks = new HashMap<>();
    private final Map<Long, DataBlockState> dataBlocks = new HashMap<>();
    private final Set<Object> dirty = new LinkedHashSet<>();
    private boolean indexBlockDirty;
    private boolean headerDirty;

    private static final class SuperBlockState {
        final long address;
        final ExtensibleArraySuperBlock block;

        SuperBlockState(long address, ExtensibleArraySuperBlock block) {
            this.address = address;
            this.block = block;
        }
    }

    private static final class DataBlockState {
        final int superBlock;
        final long dataBlock;
        final long address;
        final ExtensibleArrayDataBlock layout;
        /** Elements of an unpaged block; null when paged. */
        final ChunkRecord[] elements;
        final Map<Long, ChunkRecord[]> pages = new TreeMap<>();
        final Set<Long> dirtyPages = new LinkedHashSet<>();

        DataBlockState(int superBlock, long dataBlock, long address,
                       ExtensibleArrayDataBlock layout, ChunkRecord[] elements) {
            this.superBlock = superBlock;
            this.dataBlock = dataBlock;
            this.address = address;
            this.layout = layout;
            this.elements = elements;
        }
    }

    private ExtensibleArrayChunkIndex(BlockFile file, ChunkGrid grid, long headerAddress,
                                      ExtensibleArrayGeometry geometry, ChunkRecordFormat format,
                                      long unfilteredChunkSize) {
        this.file = file;
        this.grid = grid;
        this.headerAddress = headerAddress;
        this.geometry = geometry;
        this.format = format;
        this.unfilteredChunkSize = unfilteredChunkSize;
    }

    /** Allocates a new, empty index with libhdf5's default parameters. */
    static ExtensibleArrayChunkIndex create(BlockFile file, ChunkRecordFormat format,
                                            ChunkGrid grid, long unfilteredChunkSize) {
        ExtensibleArrayGeometry geometry =
                new ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray.DEFAULT);
        long headerAddress = file.allocate(ExtensibleArrayHeader.SIZE);
        ExtensibleArrayChunkIndex index = new ExtensibleArrayChunkIndex(file, grid,
                headerAddress, geometry, format, unfilteredChunkSize);
        index.indexBlockAddress = file.allocate(ExtensibleArrayIndexBlock.size(geometry, format));
        index.indexBlock = ExtensibleArrayIndexBlock.empty(geometry);
        index.statistics = new ExtensibleArrayHeader.Statistics(0, 0, 0, 0, 0,
                geometry.parameters().indexBlockElements());
        index.indexBlockDirty = true;
        index.headerDirty = true;
        return index;
    }

    static ExtensibleArrayChunkIndex open(BlockFile file, long address, ChunkGrid grid,
                                          ChunkIndexParameters.ExtensibleArray expected,
                                          long unfilteredChunkSize, boolean filtered)
            throws IOException {
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
        ExtensibleArrayChunkIndex index = new ExtensibleArrayChunkIndex(file, grid, address,
                geometry, header.format(), unfilteredChunkSize);
        index.statistics = header.statistics();
        index.indexBlockAddress = header.indexBlockAddress();
        if (Addresses.isDefined(index.indexBlockAddress)) {
            index.indexBlock = ExtensibleArrayIndexBlock.read(file, index.indexBlockAddress,
                    geometry, header.format(), address, unfilteredChunkSize);
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
        return get(grid.linearIndex(scaled));
    }

    private ChunkRecord get(long index) throws IOException {
        if (indexBlock == null || index >= geometry.capacity()) {
            return ChunkRecord.UNWRITTEN;
        }
        ExtensibleArrayGeometry.Location at = geometry.locate(index);
        if (at.inIndexBlock()) {
            return indexBlock.elements()[(int) at.element()];
        }
        DataBlockState block = dataBlock(at.superBlock(), at.dataBlock(), false);
        if (block == null) {
            return ChunkRecord.UNWRITTEN;
        }
        if (block.elements != null) {
            return block.elements[(int) at.element()];
        }
        long page = at.element() / geometry.pageElements();
        ChunkRecord[] records = block.pages.get(page);
        if (records == null) {
            if (!superBlock(at.superBlock(), false).block.pageWritten(geometry, at.dataBlock(), page)) {
                return ChunkRecord.UNWRITTEN;
            }
            records = block.layout.readPage(file, block.address, page, unfilteredChunkSize);
            block.pages.put(page, records);
        }
        return records[(int) (at.element() % geometry.pageElements())];
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        long index = grid.linearIndex(scaled);
        if (index >= geometry.capacity()) {
            throw new IllegalArgumentException("chunk " + index + " is beyond the extensible "
                    + "array's capacity of " + geometry.capacity());
        }
        ExtensibleArrayGeometry.Location at = geometry.locate(index);
        if (at.inIndexBlock()) {
            indexBlock.elements()[(int) at.element()] = record;
            indexBlockDirty = true;
        } else {
            DataBlockState block = dataBlock(at.superBlock(), at.dataBlock(), true);
            if (block.elements != null) {
                block.elements[(int) at.element()] = record;
            } else {
                long page = at.element() / geometry.pageElements();
                get(index); // loads the page if it was written before
                ChunkRecord[] records = block.pages.computeIfAbsent(page, p -> {
                    ChunkRecord[] fresh = new ChunkRecord[(int) geometry.pageElements()];
                    Arrays.fill(fresh, ChunkRecord.UNWRITTEN);
                    return fresh;
                });
                records[(int) (at.element() % geometry.pageElements())] = record;
                block.dirtyPages.add(page);
            }
            dirty.add(block);
        }
        if (index >= statistics.maxIndexSet()) {
            statistics = new ExtensibleArrayHeader.Statistics(statistics.superBlocks(),
                    statistics.superBlockBytes(), statistics.dataBlocks(),
                    statistics.dataBlockBytes(), index + 1, statistics.elementsRealized());
            headerDirty = true;
        }
    }

    @Override
    public void flush() throws IOException {
        Set<SuperBlockState> superBlocksToWrite = new LinkedHashSet<>();
        for (Object block : dirty) {
            if (block instanceof SuperBlockState sup) {
                superBlocksToWrite.add(sup);
            } else {
                DataBlockState data = (DataBlockState) block;
                for (long page : data.dirtyPages) {
                    file.write(data.layout.pageAddress(data.address, page),
                            data.layout.encodePage(data.pages.get(page)));
                    SuperBlockState owner = superBlock(data.superBlock, false);
                    if (!owner.block.pageWritten(geometry, data.dataBlock, page)) {
                        owner.block.markPageWritten(geometry, data.dataBlock, page);
                        superBlocksToWrite.add(owner);
                    }
                }
                data.dirtyPages.clear();
                file.write(data.address, data.layout.encode(headerAddress, data.dataBlock,
                        data.elements));
            }
        }
        for (SuperBlockState sup : superBlocksToWrite) {
            file.write(sup.address, sup.block.encode(geometry, format, headerAddress));
        }
        dirty.clear();
        if (indexBlockDirty) {
            file.write(indexBlockAddress, indexBlock.encode(format, headerAddress));
            indexBlockDirty = false;
        }
        if (headerDirty) {
            file.write(headerAddress, new ExtensibleArrayHeader(format, geometry.parameters(),
                    statistics, indexBlockAddress).encode());
            headerDirty = false;
        }
    }

    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (indexBlock == null) {
            return;
        }
        grid.forEachWritten(indexBlock.elements(), 0, visitor);
        long indexBlockElements = geometry.parameters().indexBlockElements();
        for (int s = 0; s < geometry.superBlockCount(); s++) {
            boolean direct = s < geometry.firstIndexedSuperBlock();
            SuperBlockState owner = direct ? null : superBlock(s, false);
            if (!direct && owner == null) {
                continue;
            }
            for (long d = 0; d < geometry.dataBlocks(s); d++) {
                DataBlockState block = dataBlock(s, d, false);
                if (block == null) {
                    continue;
                }
                long first = indexBlockElements + geometry.startElement(s)
                        + d * geometry.dataBlockElements(s);
                if (block.elements != null) {
                    grid.forEachWritten(block.elements, first, visitor);
                    continue;
                }
                for (long page = 0; page < geometry.pagesPerDataBlock(s); page++) {
                    ChunkRecord[] records = block.pages.get(page);
                    if (records == null && owner.block.pageWritten(geometry, d, page)) {
                        records = block.layout.readPage(file, block.address, page,
                                unfilteredChunkSize);
                    }
                    if (records != null) {
                        grid.forEachWritten(records, first + page * geometry.pageElements(),
                                visitor);
                    }
                }
            }
        }
    }

    /** The state of super block {@code s} (which the index block points at), read or created. */
    private SuperBlockState superBlock(int s, boolean create) throws IOException {
        SuperBlockState state = superBlocks.get(s);
        if (state != null) {
            return state;
        }
        int slot = s - geometry.firstIndexedSuperBlock();
        long address = indexBlock.superBlockAddresses()[slot];
        if (Addresses.isDefined(address)) {
            state = new SuperBlockState(address, ExtensibleArraySuperBlock.read(file, address,
                    geometry, s, format, headerAddress));
        } else if (create) {
            int size = ExtensibleArraySuperBlock.size(geometry, s);
            state = new SuperBlockState(file.allocate(size),
                    ExtensibleArraySuperBlock.empty(geometry, s));
            indexBlock.superBlockAddresses()[slot] = state.address;
            indexBlockDirty = true;
            dirty.add(state);
            countBlock(true, size, 0);
        } else {
            return null;
        }
        superBlocks.put(s, state);
        return state;
    }

    /** The state of data block {@code d} of super block {@code s}, read or created. */
    private DataBlockState dataBlock(int s, long d, boolean create) throws IOException {
        long key = geometry.startDataBlock(s) + d;
        DataBlockState state = dataBlocks.get(key);
        if (state != null) {
            return state;
        }
        ExtensibleArrayDataBlock layout = new ExtensibleArrayDataBlock(geometry, format, s);
        boolean direct = s < geometry.firstIndexedSuperBlock();
        if (direct && layout.isPaged()) {
            throw new UnsupportedFormatException(file.path(), "extensible array at offset "
                    + headerAddress + " pages data blocks the index block points at directly");
        }
        SuperBlockState owner = direct ? null : superBlock(s, create);
        if (!direct && owner == null) {
            return null;
        }
        long address = direct ? indexBlock.dataBlockAddresses()[(int) key]
                : owner.block.dataBlockAddresses()[(int) d];
        ChunkRecord[] elements;
        if (Addresses.isDefined(address)) {
            elements = layout.read(file, address, headerAddress, d, unfilteredChunkSize);
        } else if (create) {
            address = file.allocate(layout.totalSize());
            if (direct) {
                indexBlock.dataBlockAddresses()[(int) key] = address;
                indexBlockDirty = true;
            } else {
                owner.block.dataBlockAddresses()[(int) d] = address;
                dirty.add(owner);
            }
            elements = layout.isPaged() ? null
                    : new ChunkRecord[(int) geometry.dataBlockElements(s)];
            if (elements != null) {
                Arrays.fill(elements, ChunkRecord.UNWRITTEN);
            }
            countBlock(false, layout.totalSize(), geometry.dataBlockElements(s));
        } else {
            return null;
        }
        state = new DataBlockState(s, d, address, layout, elements);
        dataBlocks.put(key, state);
        return state;
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
        headerDirty = true;
    }
}
