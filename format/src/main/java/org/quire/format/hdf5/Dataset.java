package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.ChunkIndexes;
import org.quire.format.hdf5.chunk.InPlaceChunkStore;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.chunk.StoredChunkVisitor;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayout;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;

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
 * headers reach the file on {@link Hdf5File#flush()} and {@link Hdf5File#close()}.
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
    /** The elements of a contiguous or compact dataset; null for a chunked one. */
    private final ContiguousData contiguous;
    private int dataspaceHandle;
    private int layoutHandle;

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
        ChunkIndex index = ChunkIndexes.create(blocks, spec.shape(), spec.maxShape(),
                spec.chunkShape(), spec.type().size(), !spec.filters().isEmpty());
        ChunkedData data = chunkedData(file, new ChunkGrid(spec.chunkShape(), spec.maxShape()),
                index, spec.filters(), spec.type().size(), spec.fillValue());
        List<HeaderMessage> messages = DatasetHeader.messages(spec, data.layoutMessage());
        WritableObjectHeader header = new WritableObjectHeader(blocks, messages,
                SPARE_HEADER_BYTES);
        file.track(header);
        Dataset dataset = new Dataset(file, path, header.address(), header, spec.shape(),
                spec.maxShape(), spec.type(), spec.fillValue(), spec.filters(), data, null);
        dataset.dataspaceHandle = DatasetHeader.DATASPACE_MESSAGE;
        dataset.layoutHandle = messages.size() - 1;
        file.track(dataset);
        return dataset;
    }

    /** The dataset whose header {@code messages} were read at {@code address}. */
    static Dataset read(Hdf5File file, String path, long address, List<HeaderMessage> messages)
            throws IOException {
        BlockFile blocks = file.blocks();
        DatasetHeader described = DatasetHeader.decode(blocks.path(), path, address, messages);
        DataspaceMessage space = described.space();
        Datatype type = described.type();
        ChunkedData chunked = null;
        ContiguousData contiguous = null;
        if (described.layout() instanceof DataLayoutMessage layout) {
            ChunkIndex index = ChunkIndexes.open(blocks, file.ranks(), layout, space.dimensions(),
                    space.maxDimensions(), !described.filters().isEmpty());
            chunked = chunkedData(file, new ChunkGrid(layout.chunkDimensions(),
                    space.maxDimensions()), index, described.filters(), type.size(),
                    described.fillValue());
        } else {
            contiguous = contiguousData(blocks, address, space, type, described.layout());
        }
        Dataset dataset = new Dataset(file, path, address, null, space.dimensions(),
                space.maxDimensions(), type, described.fillValue(), described.filters(), chunked,
                contiguous);
        dataset.readAttributes(messages);
        return dataset;
    }

    private static ChunkedData chunkedData(Hdf5File file, ChunkGrid grid, ChunkIndex index,
                                           List<Filter> filters, int elementSize,
                                           byte[] fillValue) {
        return new ChunkedData(file.path(), grid, index, new InPlaceChunkStore(file.blocks()),
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
        return contiguous != null ? contiguous.layout() : StorageLayout.CHUNKED;
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
            throw new IllegalStateException(path() + " is " + layout().name().toLowerCase()
                    + ", not chunked");
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
     */
    public void extend(long... newShape) {
        requireWritable();
        if (newShape.length != shape.length) {
            throw new IllegalArgumentException("rank " + newShape.length + ", dataset has "
                    + shape.length);
        }
        for (int d = 0; d < shape.length; d++) {
            if (newShape[d] < shape[d]
                    || maxShape[d] != DatasetSpec.UNLIMITED && newShape[d] > maxShape[d]) {
                throw new IllegalArgumentException("cannot extend " + Arrays.toString(shape)
                        + " to " + Arrays.toString(newShape) + " (maximum "
                        + Arrays.toString(maxShape) + ")");
            }
        }
        shape = newShape.clone();
        header.replace(dataspaceHandle, new DataspaceMessage(shape, maxShape).encode());
    }

    /**
     * Writes the hyperslab's elements from {@code data}: exactly their bytes remaining, in the
     * datatype's byte order (the buffer's position is not moved). A chunk the selection covers
     * whole is written from a direct buffer's own memory when its elements are consecutive
     * there.
     */
    public void write(long[] start, long[] count, ByteBuffer data) throws IOException {
        requireWritable();
        long elements = checkSelection(start, count);
        if (data.remaining() != elements * type.size()) {
            throw new IllegalArgumentException("selection of " + elements + " elements needs "
                    + elements * type.size() + " bytes, got " + data.remaining());
        }
        requireChunked().write(start, count, SelectionSource.of(data, type));
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
        requireWritable();
        long elements = checkSelection(start, count);
        if (length != elements) {
            throw new IllegalArgumentException("selection of " + elements
                    + " elements, array of " + length);
        }
        requireChunked().write(start, count, source);
    }

    /** The hyperslab's elements, in the datatype's byte order (the buffer's order is set to it). */
    public ByteBuffer read(long[] start, long[] count) throws IOException {
        long elements = checkSelection(start, count);
        ByteBuffer target = ByteBuffer.allocate((int) (elements * type.size()));
        read(start, count, target);
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

    public byte[] readBytes(long[] start, long[] count) throws IOException {
        byte[] values = new byte[elementsOf(start, count)];
        read(start, count, values);
        return values;
    }

    public short[] readShorts(long[] start, long[] count) throws IOException {
        short[] values = new short[elementsOf(start, count)];
        read(start, count, values);
        return values;
    }

    public int[] readInts(long[] start, long[] count) throws IOException {
        int[] values = new int[elementsOf(start, count)];
        read(start, count, values);
        return values;
    }

    public long[] readLongs(long[] start, long[] count) throws IOException {
        long[] values = new long[elementsOf(start, count)];
        read(start, count, values);
        return values;
    }

    public float[] readFloats(long[] start, long[] count) throws IOException {
        float[] values = new float[elementsOf(start, count)];
        read(start, count, values);
        return values;
    }

    public double[] readDoubles(long[] start, long[] count) throws IOException {
        double[] values = new double[elementsOf(start, count)];
        read(start, count, values);
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

    private void readInto(long[] start, long[] count, SelectionTarget target)
            throws IOException {
        file.requireOpen();
        if (contiguous != null) {
            contiguous.read(start, count, target,
                    fillValue != null ? fillValue : new byte[type.size()], file.transfer());
        } else {
            chunked.read(start, count, target);
        }
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

    /** Writes the chunk index and the layout message; called by the file's flush. */
    void flushIndex() throws IOException {
        header.replace(layoutHandle, chunked.flush().encode());
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

    /** Reads, unfilters and checks the chunk {@code record} points at. */
    byte[] readChunk(ChunkRecord record) throws IOException {
        return requireChunked().readChunk(record);
    }
}
