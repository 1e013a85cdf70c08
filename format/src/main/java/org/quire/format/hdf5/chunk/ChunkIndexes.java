package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.SkipListGeometry;

/**
 * The one place that knows the set of chunk indexes: which index a new dataset gets, and which
 * implementation opens the index a data layout message names. The on-disk code of each index
 * type is in {@link ChunkIndexParameters}; adding an index means a record there (code and
 * creation parameters, coded by {@link DataLayoutMessage}), an implementation of
 * {@link ChunkIndex} in this package, and a branch in each method here.
 */
public final class ChunkIndexes {

    private ChunkIndexes() {
    }

    /**
     * A new, empty index for a dataset of {@code shape} growing to {@code maxShape}, chosen as
     * libhdf5 1.10.8 does with the latest file format: a version-2 B-tree with more than one
     * unlimited dimension, an extensible array with one, the single chunk index when the dataset
     * is one chunk that never grows, a fixed array otherwise.
     *
     * @throws IllegalArgumentException a fixed array would need more entries than Quire writes
     */
    public static ChunkIndex create(BlockFile file, MetadataCache cache, long[] shape,
                                    long[] maxShape, long[] chunkShape, int elementSize,
                                    boolean filtered) throws IOException {
        return create(file, cache, shape, maxShape, chunkShape, elementSize, filtered, false);
    }

    /**
     * As {@link #create(BlockFile, MetadataCache, long[], long[], long[], int, boolean)}, or,
     * with {@code quireOnlySkipList}, Quire's skip list index, which only Quire reads (the
     * caller checked that exactly one dimension is unlimited).
     */
    public static ChunkIndex create(BlockFile file, MetadataCache cache, long[] shape,
                                    long[] maxShape, long[] chunkShape, int elementSize,
                                    boolean filtered, boolean quireOnlySkipList)
            throws IOException {
        IndexBlocks blocks = new IndexBlocks(file, cache);
        long chunkBytes = Shapes.elementCount(chunkShape) * elementSize;
        ChunkRecordFormat format = filtered ? ChunkRecordFormat.filtered(chunkBytes)
                : ChunkRecordFormat.unfiltered();
        ChunkGrid grid = new ChunkGrid(chunkShape, maxShape);
        if (quireOnlySkipList) {
            if (grid.unlimitedDimensions() != 1) {
                throw new IllegalArgumentException("the skip list index needs exactly one "
                        + "unlimited dimension, not " + grid.unlimitedDimensions());
            }
            return SkipListChunkIndex.create(blocks, format, grid, SkipListGeometry.DEFAULT,
                    chunkBytes);
        }
        if (grid.unlimitedDimensions() > 1) {
            return BTreeV2ChunkIndex.create(blocks, format, grid.rank(), chunkBytes);
        }
        if (grid.unlimitedDimensions() == 1) {
            return ExtensibleArrayChunkIndex.create(blocks, format, grid, chunkBytes);
        }
        if (Arrays.equals(shape, maxShape) && Arrays.equals(shape, chunkShape)) {
            return new SingleChunkIndex(grid.rank(), filtered, ChunkRecord.UNWRITTEN);
        }
        return FixedArrayChunkIndex.create(blocks, format, grid, chunkBytes);
    }

    /**
     * The index {@code layout} names, for a dataset of {@code shape} and {@code maxShape} whose
     * chunks are {@code filtered} or not; its blocks are reached through {@code cache}. The
     * caller has checked the layout against the dataspace (rank, and a chunk grid whose sizes
     * do not overflow). A {@code writable} index (a file reopened for writing) also holds the
     * header blocks it changes. A fixed array, extensible array or version-2 B-tree libhdf5
     * never allocated (no chunk written: an undefined address) is an {@link
     * UnallocatedChunkIndex}; writable, its first write creates it.
     *
     * @throws UnsupportedFormatException {@code writable}, and the index is one Quire only reads
     */
    public static ChunkIndex open(BlockFile file, MetadataCache cache, BTreeV1Ranks ranks,
                                  DataLayoutMessage layout, long[] shape, long[] maxShape,
                                  boolean filtered, boolean writable) throws IOException {
        IndexBlocks blocks = new IndexBlocks(file, cache);
        long chunkBytes = Shapes.elementCount(layout.chunkDimensions()) * layout.elementSize();
        ChunkGrid grid = new ChunkGrid(layout.chunkDimensions(), maxShape);
        long address = layout.indexAddress();
        ChunkIndexParameters parameters = layout.index();
        boolean allocatedWithFirstChunk = parameters instanceof ChunkIndexParameters.FixedArray
                || parameters instanceof ChunkIndexParameters.ExtensibleArray
                || parameters instanceof ChunkIndexParameters.BTreeV2;
        if (allocatedWithFirstChunk && !Addresses.isDefined(address)) {
            if (writable && !parameters.equals(ChunkIndexParameters.FixedArray.DEFAULT)
                    && !parameters.equals(ChunkIndexParameters.ExtensibleArray.DEFAULT)
                    && !parameters.equals(ChunkIndexParameters.BTreeV2.DEFAULT)) {
                throw new UnsupportedFormatException(file.path(), "chunk index (writing)",
                        address, "an index not allocated yet, with " + parameters,
                        "the parameters Quire creates (libhdf5's defaults)");
            }
            return new UnallocatedChunkIndex(parameters, !writable ? null
                    : () -> create(file, cache, shape, maxShape, layout.chunkDimensions(),
                            layout.elementSize(), filtered));
        }
        if (parameters instanceof ChunkIndexParameters.SingleChunk single) {
            return new SingleChunkIndex(grid.rank(), filtered, new ChunkRecord(address,
                    filtered ? single.filteredSize() : chunkBytes, single.filterMask()));
        }
        if (writable && parameters instanceof ChunkIndexParameters.Implicit) {
            throw new UnsupportedFormatException(file.path(), "chunk index (writing)", address,
                    parameters.toString(), "single chunk, fixed array, extensible array and "
                    + "version-1 and version-2 B-tree indexes; this one is read with "
                    + "Hdf5File.open");
        }
        if (parameters instanceof ChunkIndexParameters.Implicit) {
            return ImplicitChunkIndex.open(file, address, grid, shape, chunkBytes, filtered);
        }
        if (parameters instanceof ChunkIndexParameters.FixedArray) {
            return FixedArrayChunkIndex.open(blocks, address, grid, chunkBytes, filtered);
        }
        if (parameters instanceof ChunkIndexParameters.ExtensibleArray array) {
            return ExtensibleArrayChunkIndex.open(blocks, address, grid, array, chunkBytes,
                    filtered, writable);
        }
        if (parameters instanceof ChunkIndexParameters.BTreeV2 tree) {
            return BTreeV2ChunkIndex.open(blocks, address, tree, grid.rank(), chunkBytes,
                    filtered, writable);
        }
        if (parameters instanceof ChunkIndexParameters.SkipList list) {
            if (grid.unlimitedDimensions() != 1) {
                throw new CorruptFileException(file.path(), address, "data layout message",
                        "chunk indexing type", "an index for the dataspace's "
                        + grid.unlimitedDimensions() + " unlimited dimensions",
                        "the skip list, which needs exactly one");
            }
            return SkipListChunkIndex.open(blocks, address, grid, list, chunkBytes, filtered,
                    writable);
        }
        if (parameters instanceof ChunkIndexParameters.BTreeV1) {
            return new BTreeV1ChunkIndex(file, writable ? cache : null, address,
                    layout.chunkDimensions(), layout.elementSize(), ranks.chunkNodeK());
        }
        throw new IllegalStateException("no chunk index implements " + parameters);
    }
}
