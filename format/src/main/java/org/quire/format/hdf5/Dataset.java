package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.ChunkIndexes;
import org.quire.format.hdf5.chunk.InPlaceChunkStore;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.chunk.StoredChunkVisitor;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayout;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * A dataset. Quire writes chunked datasets and reads chunked (every chunk index, version-1
 * B-trees included), contiguous and compact ones ({@link #layout()}). Reads and writes address
 * a hyperslab ({@code start} and {@code count} per dimension) and touch only the chunks it
 * overlaps and, in unfiltered chunks and contiguous data, only the runs of elements it selects;
 * chunks never written, and contiguous data never allocated, read as the fill value. Filtered
 * chunks are kept decoded in a chunk cache ({@link ChunkCacheSettings}). Arrays and buffers
 * hold the hyperslab's elements in row-major order, buffers in the datatype's byte order; a
 * typed array is decoded into and encoded from directly, by one bulk copy per run of elements.
 *
 * <p>Written chunks go to the file at once; the chunk index, the dataspace and the object
 * headers reach the file on {@link Hdf5File#flush()} and {@link Hdf5File#close()} (or earlier,
 * index blocks only, when the metadata cache makes room).
 */
public final class Dataset extends Hdf5Object {

    /** Room in a new dataset's header for a few attributes before a continuation. */
    private static final int SPARE_HEADER_BYTES = 96;

    private long[] shape;
    private final long[] maxShape;
    private final Datatype type;
    private final byte[] fillValue;
    private final List<Filter> filters;
    /** The elements of a chunked dataset; null otherwise. */
    private final ChunkedData chunked;
    /** The elements of a contiguous or compact dataset; null otherwise. */
    private final ContiguousData contiguous;
    /** The mappings of a virtual dataset; null otherwise. */
    private VirtualData virtual;
    private int dataspaceHandle;
    private int layoutHandle;
    /** Why a dataset of a reopened file cannot be changed, or null when it can. */
    private String notRewritable;
    /** The version of the dataspace message of a dataset read from a file (1 or 2). */
    private int dataspaceVersion = 2;
    /** An SWMR reader's view of the writer's last commit; null for other files. */
    private CommittedHeader committed;
    /**
     * An SWMR reader's index view and cached chunks are to be dropped before the next read: a
     * refresh found no new extent, but the writer may have flushed chunks under the old one.
     */
    private boolean indexStale;
    /**
     * An SWMR reader's metadata cache for this dataset's chunk index, kept across refreshes
     * while the layout message names the same index ({@link MetadataCache#followFile}); null
     * before the first reopen.
     */
    private MetadataCache swmrIndexCache;
    /** The layout message whose index {@link #swmrIndexCache} holds blocks of. */
    private byte[] swmrIndexCacheLayout;

    private Dataset(Hdf5File file, String path, long address, WritableObjectHeader header,
                    long[] shape, long[] maxShape, Datatype type, byte[] fillValue,
                    List<Filter> filters, ChunkedData chunked, ContiguousData contiguous) {
        super(file, path, address, header);
        this.shape = shape;
        this.maxShape = maxShape;
        this.type = type;
        this.fillValue = fillValue;
        this.filters = filters;
        this.chunked = chunked;
        this.contiguous = contiguous;
    }

    static Dataset create(Hdf5File file, String path, DatasetSpec spec) {
        BlockFile blocks = file.blocks();
        MetadataCache cache = file.cache();
        ChunkIndex index;
        try {
            index = ChunkIndexes.create(blocks, cache, spec.shape(), spec.maxShape(),
                    spec.chunkShape(), spec.type().size(), !spec.filters().isEmpty(),
                    spec.quireOnlySkipListIndex());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChunkedData data = chunkedData(file, new ChunkGrid(spec.chunkShape(), spec.maxShape()),
                index, spec.filters(), spec.type().size(), spec.fillValue());
        List<HeaderMessage> messages = DatasetHeader.messages(spec, data.layoutMessage());
        WritableObjectHeader header = new WritableObjectHeader(blocks, cache, messages,
                SPARE_HEADER_BYTES);
        dependOnIndex(cache, header, index);
        Dataset dataset = new Dataset(file, path, header.address(), header, spec.shape(),
                spec.maxShape(), spec.type(), spec.fillValue(), spec.filters(), data, null);
        dataset.dataspaceHandle = DatasetHeader.DATASPACE_MESSAGE;
        dataset.layoutHandle = messages.size() - 1;
        return dataset;
    }

    /**
     * The layout message points at the index's header, or for a single chunk at the chunk's
     * proxy: the object header is written after it (when the cache holds it; once evicted it is
     * clean, with nothing left to order).
     */
    private static void dependOnIndex(MetadataCache cache, WritableObjectHeader header,
                                      ChunkIndex index) {
        if (cache.contains(index.address())) {
            cache.createFlushDependency(header.address(), index.address());
        }
    }

    /**
     * A dataset of {@code shape} (empty for a scalar) written whole, at once, as h5py writes
     * {@code create_dataset(name, data=...)}: contiguous, its {@code stored} elements (for
     * variable-length strings, global heap IDs) in one block; it cannot grow or be rewritten.
     */
    static Dataset createContiguous(Hdf5File file, String path, Datatype type, long[] shape,
                                    byte[] stored) throws IOException {
        BlockFile blocks = file.blocks();
        long address = Addresses.UNDEFINED;
        if (stored.length > 0) {
            address = blocks.allocate(stored.length);
            blocks.write(address, stored);
        }
        List<HeaderMessage> messages = DatasetHeader.fixedShapeMessages(type, shape, null,
                new DataLayout.Contiguous(address, stored.length).encode());
        WritableObjectHeader header = new WritableObjectHeader(blocks, file.cache(), messages,
                SPARE_HEADER_BYTES);
        return new Dataset(file, path, header.address(), header, shape.clone(), shape.clone(),
                type, null, List.of(), null, ContiguousData.contiguous(blocks, header.address(),
                        address, stored.length, shape, type.size()));
    }

    /**
     * A virtual dataset of {@code shape} (its maximum shape too) showing {@code mappings}, its
     * unmapped elements {@code fillValue} (null: zero bytes): the mappings go into the global
     * heap as one object, which the header's layout message names and is written after.
     */
    static Dataset createVirtual(Hdf5File file, String path, Datatype type, long[] shape,
                                 byte[] fillValue, List<VirtualMapping> mappings)
            throws IOException {
        GlobalHeap.Stored stored = mappings.isEmpty() ? null
                : file.globalHeap().storeBlob(VirtualMapping.encode(mappings));
        try {
            DataLayout.Virtual layout = new DataLayout.Virtual(Addresses.UNDEFINED, 0);
            if (stored != null) {
                GlobalHeapId id = GlobalHeapId.decode(file.path(), Addresses.UNDEFINED,
                        stored.elements(), 0);
                layout = new DataLayout.Virtual(id.collectionAddress(), id.objectIndex());
            }
            List<HeaderMessage> messages = DatasetHeader.fixedShapeMessages(type, shape,
                    fillValue, layout.encode());
            WritableObjectHeader header = new WritableObjectHeader(file.blocks(), file.cache(),
                    messages, SPARE_HEADER_BYTES);
            if (stored != null) {
                stored.pointedAtBy(header, header.handleOf(DataLayoutMessage.TYPE));
            }
            Dataset dataset = new Dataset(file, path, header.address(), header, shape.clone(),
                    shape.clone(), type, fillValue, List.of(), null, null);
            dataset.virtual = new VirtualData(file, path, type, mappings);
            return dataset;
        } finally {
            if (stored != null) {
                stored.release();
            }
        }
    }

    /** The mappings a virtual layout message names (none when its address is undefined). */
    private static List<VirtualMapping> mappings(Hdf5File file, DataLayout.Virtual layout)
            throws IOException {
        if (!Addresses.isDefined(layout.heapAddress())) {
            return List.of();
        }
        return VirtualMapping.decode(file.path(),
                file.references().globalHeapObject(layout.heapAddress(), layout.index()));
    }

    /**
     * The dataset whose header {@code messages} were read at {@code address}; writable through
     * {@code header} (a file reopened for writing), or read only when it is null.
     *
     * A writable chunked dataset whose dataspace or layout message Quire would not rewrite to
     * the same bytes reads, and refuses {@link #extend} and {@link #write}.
     */
    static Dataset read(Hdf5File file, String path, long address, List<HeaderMessage> messages,
                        WritableObjectHeader header) throws IOException {
        BlockFile blocks = file.blocks();
        DatasetHeader described = DatasetHeader.decode(blocks.path(), address, messages,
                file.references());
        DataspaceMessage space = described.space();
        Datatype type = described.type();
        ChunkedData chunked = null;
        ContiguousData contiguous = null;
        if (described.layout() instanceof DataLayoutMessage layout) {
            ChunkIndex index = ChunkIndexes.open(blocks, header != null ? file.cache()
                            : file.indexCache(), file.ranks(), layout, space.dimensions(),
                    space.maxDimensions(), !described.filters().isEmpty(), header != null,
                    file.writesOldFormat());
            chunked = chunkedData(file, new ChunkGrid(layout.chunkDimensions(),
                    space.maxDimensions()), index, described.filters(), type.size(),
                    described.fillValue());
        } else if (!(described.layout() instanceof DataLayout.Virtual)) {
            contiguous = contiguousData(blocks, address, space, type, described.layout());
        }
        Dataset dataset = new Dataset(file, path, address, header, space.dimensions(),
                space.maxDimensions(), type, described.fillValue(), described.filters(), chunked,
                contiguous);
        if (described.layout() instanceof DataLayout.Virtual layout) {
            dataset.virtual = new VirtualData(file, path, type, mappings(file, layout));
        }
        dataset.readAttributes(messages);
        if (file.swmrRetry() != null) {
            dataset.committed = new CommittedHeader(messages,
                    described.layout() instanceof DataLayoutMessage layout ? layout : null);
        }
        if (header != null && chunked != null) {
            dataset.dataspaceHandle = header.handleOf(DataspaceMessage.TYPE);
            dataset.layoutHandle = header.handleOf(DataLayoutMessage.TYPE);
            dataset.dataspaceVersion = header.messages().get(dataset.dataspaceHandle).body()[0];
            dataset.notRewritable = dataset.notRewritable(messages, DataspaceMessage.TYPE,
                    new DataspaceMessage(space.dimensions(), space.maxDimensions())
                            .encode(dataset.dataspaceVersion));
            // A version-1 B-tree keeps its root's address: the layout is never rewritten.
            if (dataset.notRewritable == null
                    && !(chunked.layoutMessage().index()
                            instanceof ChunkIndexParameters.BTreeV1)) {
                dataset.notRewritable = dataset.notRewritable(messages, DataLayoutMessage.TYPE,
                        chunked.layoutMessage().encode());
            }
            dependOnIndex(file.cache(), header, chunked.index());
        }
        return dataset;
    }

    /**
     * An SWMR reader's {@code H5Drefresh}: reads this dataset's object header again and, when
     * the writer committed a new extent (the dataspace message; or the data layout message)
     * since the last look, takes its shape, reopens the chunk index through a new metadata
     * cache and drops every cached chunk ({@link CommittedHeader}). When the header block
     * holding those messages reads back unchanged ({@link CommitPoint}) that is one read, and
     * the index view and cached chunks are dropped before the next read (the writer may have
     * flushed chunks under the same extent, or rewritten some). When only the dataspace
     * message changed in that block (an extend), the new extent is decoded from that same read.
     * A torn header is read again within the file's {@link SwmrReadOptions}.
     *
     * @throws IllegalStateException the file was not opened with {@link Hdf5File#openSwmr}
     * @throws MetadataRetriesExhaustedException the header failed its check at every read
     */
    public void refresh() throws IOException {
        file.requireSwmrReader();
        try {
            file.swmrRetry().run(() -> {
                refreshOnce();
                return null;
            }, () -> { });
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    private void refreshOnce() throws IOException {
        CommittedHeader.Change change = committed.read(file, address());
        if (change == null) {
            // The writer may have flushed chunks under the same extent (an extend flushed before
            // its data, a rewrite): as libhdf5's H5Drefresh, what was read of the index and every
            // cached chunk are dropped, here when the next read needs them (the refresh itself
            // stays one read).
            indexStale = chunked != null && committed.layout() != null;
            return;
        }
        indexStale = false;
        long[] newShape = change.shape();
        if (chunked != null && change.layout() != null) {
            chunked.useIndex(openSwmrIndex(change.layout(), newShape));
        }
        shape = newShape;
        committed.accept(change);
    }

    /**
     * The chunk index {@code layout} names, through this dataset's own metadata cache: the
     * blocks it holds from earlier views are each compared with the file at their next use and
     * read again only when the writer changed them in place ({@link MetadataCache#followFile});
     * a new cache when the layout message names another index.
     */
    private ChunkIndex openSwmrIndex(DataLayoutMessage layout, long[] dimensions)
            throws IOException {
        byte[] layoutBytes = layout.encode();
        if (swmrIndexCache == null || !Arrays.equals(layoutBytes, swmrIndexCacheLayout)) {
            swmrIndexCache = file.indexCache();
            swmrIndexCacheLayout = layoutBytes;
        } else {
            swmrIndexCache.followFile();
        }
        return ChunkIndexes.open(file.blocks(), swmrIndexCache, file.ranks(), layout,
                dimensions, maxShape, !filters.isEmpty(), false);
    }

    /**
     * Why this dataset's message of {@code type} cannot be changed, or null: a change rewrites
     * it in place, so Quire's encoding of it as read must give the same bytes.
     */
    private void requireRewritable() {
        if (notRewritable != null) {
            throw new UnsupportedOperationException(notRewritable);
        }
    }

    private String notRewritable(List<HeaderMessage> messages, int type, byte[] reencoded) {
        for (HeaderMessage message : messages) {
            if (message.type() == type && !Arrays.equals(message.body(), reencoded)) {
                return file.blocks().path() + ": dataset " + path() + " cannot be changed: its "
                        + "message of type " + type + " at offset " + message.bodyAddress()
                        + " is encoded otherwise than Quire writes it (version "
                        + (message.body().length > 0 ? message.body()[0] : -1) + ", "
                        + message.body().length + " bytes); it is read as it is";
            }
        }
        return null;
    }

    private static ChunkedData chunkedData(Hdf5File file, ChunkGrid grid, ChunkIndex index,
                                           List<Filter> filters, int elementSize,
                                           byte[] fillValue) {
        InPlaceChunkStore store = new InPlaceChunkStore(file.blocks(), file.cache(),
                !filters.isEmpty());
        return new ChunkedData(file.path(), grid, index, store,
                new FilterPipeline(filters, elementSize), file.transfer(), elementSize, fillValue,
                file.chunkCacheSettings());
    }

    private static ContiguousData contiguousData(BlockFile blocks, long address,
                                                 DataspaceMessage space, Datatype type,
                                                 DataLayout layout) throws IOException {
        long[] shape = space.dimensions();
        try {
            Math.multiplyExact(Shapes.elementCount(shape), type.size());
        } catch (ArithmeticException e) {
            throw new CorruptFileException(blocks.path(), address, "dataspace message",
                    "dimension sizes", "a dataset of fewer than 2^63 bytes", "an overflow");
        }
        if (layout instanceof DataLayout.Compact compact) {
            return ContiguousData.compact(blocks, address, compact.data(), shape, type.size());
        }
        DataLayout.Contiguous block = (DataLayout.Contiguous) layout;
        return ContiguousData.contiguous(blocks, address, block.address(), block.size(), shape,
                type.size());
    }

    public long[] shape() {
        return shape.clone();
    }

    /** Maximum sizes, {@link DatasetSpec#UNLIMITED} where unbounded. */
    public long[] maxShape() {
        return maxShape.clone();
    }

    public StorageLayout layout() {
        return contiguous != null ? contiguous.layout()
                : virtual != null ? StorageLayout.VIRTUAL : StorageLayout.CHUNKED;
    }

    /**
     * The mappings of a virtual dataset, in the order stored.
     *
     * @throws IllegalStateException the dataset is not virtual
     */
    public List<VirtualMapping> virtualMappings() {
        if (virtual == null) {
            throw new IllegalStateException(file.blocks().path() + ": " + path() + " is "
                    + layout().name().toLowerCase() + ", not virtual");
        }
        return virtual.mappings();
    }

    /** @throws IllegalStateException the dataset is not chunked */
    public long[] chunkShape() {
        return requireChunked().grid().chunkShape();
    }

    public Datatype type() {
        return type;
    }

    /** The fill value's bytes, or null when it is the default (all bytes zero). */
    public byte[] fillValue() {
        return fillValue == null ? null : fillValue.clone();
    }

    public List<Filter> filters() {
        return filters;
    }

    /** @throws IllegalStateException the dataset is not chunked */
    public ChunkIndexType chunkIndexType() {
        return ChunkIndexType.ofCode(requireChunked().index().parameters().code());
    }

    private ChunkedData requireChunked() {
        if (chunked == null) {
            throw new IllegalStateException(file.blocks().path() + ": " + path() + " is "
                    + layout().name().toLowerCase() + ", not chunked");
        }
        return chunked;
    }

    /** @throws IllegalStateException the dataset is not chunked */
    ChunkGrid chunkGrid() {
        return requireChunked().grid();
    }

    /** @throws IllegalStateException the dataset is not chunked */
    ChunkIndex chunkIndex() {
        return requireChunked().index();
    }

    /** The elements of a contiguous or compact dataset; null for a chunked one. */
    ContiguousData contiguousData() {
        return contiguous;
    }

    /**
     * Grows the dataset to {@code newShape}; new elements read as the fill value.
     *
     * @throws IllegalArgumentException a size shrinks or exceeds the maximum shape
     * @throws UnsupportedOperationException a dataset of a reopened file whose dataspace or
     *                                       layout message Quire does not rewrite
     */
    public void extend(long... newShape) {
        requireWritable();
        requireChunked();
        requireRewritable();
        checkExtent(newShape, false);
        useShape(newShape);
    }

    /**
     * Changes the shape to {@code newShape}, each size growing or shrinking within the maximum
     * shape, as libhdf5's {@code H5Dset_extent} (h5py's {@code resize}). Elements cut off read
     * as the fill value when the dataset grows again: each stored chunk reaching beyond the new
     * shape is first overwritten with the fill value there. (libhdf5 also takes the chunks lying
     * wholly beyond out of the index; Quire keeps them, holding the fill value, so their space
     * stays in use.)
     *
     * @throws IllegalArgumentException a size is negative or exceeds the maximum shape
     * @throws SwmrWriteRefusedException a size shrinks while the file is SWMR writing
     * @throws UnsupportedOperationException as {@link #extend}
     */
    public void setExtent(long... newShape) throws IOException {
        requireWritable();
        ChunkedData chunks = requireChunked();
        requireRewritable();
        checkExtent(newShape, true);
        boolean shrinks = false;
        for (int d = 0; d < shape.length; d++) {
            shrinks |= newShape[d] < shape[d];
        }
        if (shrinks) {
            file.requireNotSwmrWriting("shrink " + path());
            fillBeyond(chunks, newShape);
        }
        useShape(newShape);
    }

    private void checkExtent(long[] newShape, boolean mayShrink) {
        if (newShape.length != shape.length) {
            throw new IllegalArgumentException(file.blocks().path() + ": " + path() + ": rank "
                    + newShape.length + ", dataset has " + shape.length);
        }
        for (int d = 0; d < shape.length; d++) {
            if (newShape[d] < (mayShrink ? 0 : shape[d])
                    || maxShape[d] != DatasetSpec.UNLIMITED && newShape[d] > maxShape[d]) {
                throw new IllegalArgumentException(file.blocks().path() + ": cannot "
                        + (mayShrink ? "resize " : "extend ") + path() + " from "
                        + Arrays.toString(shape) + " to " + Arrays.toString(newShape)
                        + " (maximum " + Arrays.toString(maxShape) + ")");
            }
        }
    }

    private void useShape(long[] newShape) {
        shape = newShape.clone();
        header.replace(dataspaceHandle,
                new DataspaceMessage(shape, maxShape).encode(dataspaceVersion));
    }

    /**
     * Writes the fill value into the part of each stored chunk inside the current shape but
     * beyond {@code newShape}: one slab per dimension that shrinks.
     */
    private void fillBeyond(ChunkedData chunks, long[] newShape) throws IOException {
        List<long[]> stored = new ArrayList<>();
        chunks.index().forEachStoredChunk((coordinates, record) -> stored.add(coordinates));
        long[] chunkShape = chunks.grid().chunkShape();
        byte[] fill = fillValue != null ? fillValue : new byte[type.size()];
        for (long[] coordinates : stored) {
            long[] first = new long[shape.length];
            long[] end = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                first[d] = coordinates[d] * chunkShape[d];
                end[d] = Math.min(first[d] + chunkShape[d], shape[d]);
            }
            for (int cut = 0; cut < shape.length; cut++) {
                if (end[cut] <= Math.max(first[cut], newShape[cut])) {
                    continue;
                }
                long[] start = first.clone();
                start[cut] = Math.max(first[cut], newShape[cut]);
                long[] count = new long[shape.length];
                boolean empty = false;
                for (int d = 0; d < shape.length; d++) {
                    count[d] = end[d] - start[d];
                    empty |= count[d] <= 0;
                }
                if (!empty) {
                    ByteBuffer fills = ByteBuffer.allocate((int) (Shapes.elementCount(count)
                            * type.size()));
                    while (fills.hasRemaining()) {
                        fills.put(fill);
                    }
                    writeSelection(chunks, start, count, SelectionSource.of(fills.flip(), type));
                }
            }
        }
    }

    /**
     * Writes the hyperslab's elements from {@code data}: exactly their bytes remaining, in the
     * datatype's byte order (the buffer's position is not moved). A chunk the selection covers
     * whole is written from a direct buffer's own memory when its elements are consecutive
     * there.
     */
    public void write(long[] start, long[] count, ByteBuffer data) throws IOException {
        ChunkedData chunks = writableChunks();
        long elements = checkSelection(start, count);
        if (data.remaining() != elements * type.size()) {
            throw new IllegalArgumentException("selection of " + elements + " elements needs "
                    + elements * type.size() + " bytes, got " + data.remaining());
        }
        writeSelection(chunks, start, count, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, byte[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, short[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, int[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, long[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, float[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    public void write(long[] start, long[] count, double[] data) throws IOException {
        writeArray(start, count, data.length, SelectionSource.of(data, type));
    }

    /** Writes from an array of {@code length} elements, encoded once into the stored bytes. */
    private void writeArray(long[] start, long[] count, int length, SelectionSource source)
            throws IOException {
        ChunkedData chunks = writableChunks();
        long elements = checkSelection(start, count);
        if (length != elements) {
            throw new IllegalArgumentException("selection of " + elements
                    + " elements, array of " + length);
        }
        writeSelection(chunks, start, count, source);
    }

    private ChunkedData writableChunks() {
        requireWritable();
        ChunkedData chunks = requireChunked();
        requireRewritable();
        return chunks;
    }

    /** Writes the selection; a layout message that records the index (single chunk) follows. */
    private void writeSelection(ChunkedData chunks, long[] start, long[] count,
                                SelectionSource source) throws IOException {
        try {
            chunks.write(start, count, source);
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
        if (chunks.index().recordsInLayoutMessage()) {
            header.replace(layoutHandle, chunks.layoutMessage().encode());
            dependOnIndex(file.cache(), header, chunks.index());
        }
    }

    /** The hyperslab's elements, in the datatype's byte order (the buffer's order is set to it). */
    public ByteBuffer read(long[] start, long[] count) throws IOException {
        long elements = checkSelection(start, count);
        ByteBuffer target = ByteBuffer.allocate((int) (elements * type.size()));
        readInto(start, count, SelectionTarget.of(target, type).allocatedZeroed());
        return target.order(type.byteOrder());
    }

    /**
     * Reads the hyperslab's elements into {@code target}, in the datatype's byte order: exactly
     * their bytes must remain (the buffer's position is not moved). A direct buffer receives the
     * file's bytes without an intermediate copy.
     */
    public void read(long[] start, long[] count, ByteBuffer target) throws IOException {
        long elements = checkSelection(start, count);
        if (target.remaining() != elements * type.size()) {
            throw new IllegalArgumentException("selection of " + elements + " elements needs "
                    + elements * type.size() + " bytes, got " + target.remaining());
        }
        readInto(start, count, SelectionTarget.of(target, type));
    }

    /** Reads the hyperslab's elements into {@code target}, which holds exactly as many. */
    public void read(long[] start, long[] count, byte[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /** Reads the hyperslab's elements into {@code target}, which holds exactly as many. */
    public void read(long[] start, long[] count, short[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /** Reads the hyperslab's elements into {@code target}, which holds exactly as many. */
    public void read(long[] start, long[] count, int[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /** Reads the hyperslab's elements into {@code target}, which holds exactly as many. */
    public void read(long[] start, long[] count, long[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /** Reads the hyperslab's elements into {@code target}, which holds exactly as many. */
    public void read(long[] start, long[] count, float[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /**
     * Reads the hyperslab's elements into {@code target}, which holds exactly as many, decoding
     * the file's bytes straight into it.
     */
    public void read(long[] start, long[] count, double[] target) throws IOException {
        readArray(start, count, target.length, SelectionTarget.of(target, type));
    }

    /**
     * The bytes of each string in the hyperslab, in row-major order: for a variable-length
     * string type the bytes stored in the global heap (an element never written is empty),
     * for a fixed-length one without trailing padding, as h5py returns them.
     *
     * @throws IllegalStateException the type is not a string type
     */
    public List<byte[]> readStringBytes(long[] start, long[] count) throws IOException {
        ByteBuffer elements = read(start, count);
        byte[] bytes = new byte[elements.remaining()];
        elements.get(bytes);
        List<byte[]> strings = new ArrayList<>();
        if (type instanceof Datatype.VariableLengthStringType) {
            for (int at = 0; at < bytes.length; at += GlobalHeapId.SIZE) {
                GlobalHeapId id = GlobalHeapId.decode(file.path(), Addresses.UNDEFINED, bytes,
                        at);
                try {
                    strings.add(id.isEmpty() ? new byte[0]
                            : file.references().globalHeapObject(id));
                } catch (CorruptFileException e) {
                    throw e.of(path());
                }
            }
        } else if (type instanceof Datatype.StringType fixed) {
            for (int at = 0; at < bytes.length; at += fixed.size()) {
                strings.add(fixed.decodeBytes(bytes, at));
            }
        } else {
            throw new IllegalStateException(path() + " holds " + type + ", not strings");
        }
        return strings;
    }

    /**
     * The hyperslab's integers, of any size from 1 to 8 bytes (enumerations as their
     * integers), widened to long: sign-extended when signed, unsigned 64-bit values keep their
     * bits.
     *
     * @throws IllegalArgumentException the type is not an integer or enumeration type
     */
    public long[] readIntegers(long[] start, long[] count) throws IOException {
        ElementCodec.integerOf(type);
        long elements = checkSelection(start, count);
        return ElementCodec.decodeLongs(type, read(start, count), (int) elements);
    }

    /** The strings in the hyperslab ({@link #readStringBytes}) as text. */
    public List<String> readStrings(long[] start, long[] count) throws IOException {
        List<String> texts = new ArrayList<>();
        for (byte[] string : readStringBytes(start, count)) {
            texts.add(Strings.decode(type, string));
        }
        return texts;
    }

    public byte[] readBytes(long[] start, long[] count) throws IOException {
        byte[] values = new byte[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    public short[] readShorts(long[] start, long[] count) throws IOException {
        short[] values = new short[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    public int[] readInts(long[] start, long[] count) throws IOException {
        int[] values = new int[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    public long[] readLongs(long[] start, long[] count) throws IOException {
        long[] values = new long[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    public float[] readFloats(long[] start, long[] count) throws IOException {
        float[] values = new float[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    public double[] readDoubles(long[] start, long[] count) throws IOException {
        double[] values = new double[elementsOf(start, count)];
        readInto(start, count, SelectionTarget.of(values, type).allocatedZeroed());
        return values;
    }

    private int elementsOf(long[] start, long[] count) {
        return (int) checkSelection(start, count);
    }

    private void readArray(long[] start, long[] count, int length, SelectionTarget target)
            throws IOException {
        long elements = checkSelection(start, count);
        if (length != elements) {
            throw new IllegalArgumentException("selection of " + elements
                    + " elements, array of " + length);
        }
        readInto(start, count, target);
    }

    /** Reads the hyperslab, which the caller has checked lies inside the shape, into {@code target}. */
    void readInto(long[] start, long[] count, SelectionTarget target)
            throws IOException {
        file.requireOpen();
        try {
            if (virtual != null) {
                virtual.read(shape, start, count, target,
                        fillValue != null ? fillValue : new byte[type.size()]);
            } else if (contiguous != null) {
                contiguous.read(start, count, target,
                        fillValue != null ? fillValue : new byte[type.size()], file.transfer());
            } else {
                throughCurrentIndex(() -> {
                    chunked.read(start, count, target);
                    return null;
                });
            }
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    /**
     * Whether the chunk holding the element at {@code coordinates} is in the chunk index, i.e.
     * was written and flushed (an SWMR reader sees it after the {@link #refresh()} following the
     * writer's flush). A chunk never written reads as the fill value, which a caller cannot tell
     * from written fill: Hangar's collection files use this to refuse a row never written.
     * In a file being written, chunks held in the chunk cache and not yet flushed are not seen.
     *
     * @throws IllegalStateException     the dataset is not chunked
     * @throws IndexOutOfBoundsException the coordinates lie outside the dataset's shape
     */
    public boolean isChunkWritten(long... coordinates) throws IOException {
        ChunkedData chunks = requireChunked();
        long[] one = new long[coordinates.length];
        Arrays.fill(one, 1);
        checkSelection(coordinates, one);
        long[] chunkShape = chunks.grid().chunkShape();
        long[] scaled = new long[coordinates.length];
        for (int d = 0; d < scaled.length; d++) {
            scaled[d] = coordinates[d] / chunkShape[d];
        }
        file.requireOpen();
        try {
            return throughCurrentIndex(() -> chunked.index().get(scaled).isWritten());
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    /**
     * Runs {@code read} against the chunk index; for an SWMR reader through the index the last
     * {@link #refresh()} found, reopened and read again when a torn index block fails its check.
     */
    private <T> T throughCurrentIndex(MetadataReadRetry.Read<T> read) throws IOException {
        if (file.swmrRetry() == null) {
            return read.run();
        }
        return file.swmrRetry().run(() -> {
            if (indexStale) {
                chunked.useIndex(openSwmrIndex(committed.layout(), shape));
                indexStale = false;
            }
            return read.run();
        }, () -> indexStale = true);
    }

    /**
     * Gives this dataset an empty chunk cache of {@code settings}' size, in place of the one it
     * got from the file's settings.
     *
     * @throws IllegalStateException the dataset is not chunked
     */
    public void useChunkCache(ChunkCacheSettings settings) {
        requireChunked().useCache(settings);
    }

    /**
     * New chunks of this dataset, from now on and for as long as it is open, go right after
     * whatever the file allocated last, not at the aligned offsets a chunk whose size is a
     * multiple of 64 KiB gets (docs/hdf5.md): no bytes skipped, for a dataset that grows a few
     * chunks at a time between other metadata, at the cost of the faster copies aligned chunks
     * get. Not stored in the file.
     *
     * @throws IllegalStateException the dataset is not chunked
     */
    public void packNewChunks() {
        requireChunked().packNewChunks();
    }

    private long checkSelection(long[] start, long[] count) {
        if (start.length != shape.length || count.length != shape.length) {
            throw new IllegalArgumentException("selection rank " + start.length + "/"
                    + count.length + ", dataset rank " + shape.length);
        }
        for (int d = 0; d < shape.length; d++) {
            if (start[d] < 0 || count[d] < 0 || start[d] > shape[d] - count[d]) {
                throw new IndexOutOfBoundsException("selection start " + Arrays.toString(start)
                        + " count " + Arrays.toString(count) + " outside shape "
                        + Arrays.toString(shape));
            }
        }
        long elements = Shapes.elementCount(count);
        if (elements * type.size() > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("selection of " + elements
                    + " elements does not fit in one Java array; read it in parts");
        }
        return elements;
    }

    /**
     * Visits every chunk with storage (see {@link ChunkIndex#forEachStoredChunk}).
     *
     * @throws IllegalStateException the dataset is not chunked
     */
    void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        requireChunked().index().forEachStoredChunk(visitor);
    }

    /** Reads, unfilters and checks the chunk at {@code scaled}, which {@code record} points at. */
    byte[] readChunk(long[] scaled, ChunkRecord record) throws IOException {
        return requireChunked().readChunk(scaled, record);
    }
}
