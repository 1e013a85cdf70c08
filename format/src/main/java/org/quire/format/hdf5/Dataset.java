package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.DataLayout;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.FillValueMessage;
import org.quire.format.hdf5.layout.FilterPipelineMessage;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.SharedMessage;

/**
 * A dataset. Quire writes chunked datasets and reads chunked (every chunk index, version-1
 * B-trees included), contiguous and compact ones ({@link #layout()}). Reads and writes address a hyperslab ({@code start} and {@code count} per
 * dimension) and touch only the chunks (or, contiguous, the runs of elements) it overlaps;
 * chunks never written, and contiguous data never allocated, read as the fill value.
 * Arrays and buffers hold the hyperslab's elements in row-major order, in the datatype's byte
 * order (typed arrays are converted).
 *
 * <p>Written chunks go to the file at once; the chunk index, the dataspace and the object
 * headers reach the file on {@link Hdf5File#flush()} and {@link Hdf5File#close()}.
 */
public final class Dataset extends Hdf5Object {

    /** Room in a new dataset's header for a few attributes before a continuation. */
    private static final int SPARE_HEADER_BYTES = 96;

    private long[] shape;
    private final long[] maxShape;
    /** The chunk grid, index and chunk size of a chunked dataset; null otherwise. */
    private final ChunkGrid grid;
    private final ChunkIndex index;
    private final int chunkBytes;
    /** The elements of a contiguous or compact dataset; null for a chunked one. */
    private final ContiguousData contiguous;
    private final Datatype type;
    private final byte[] fillValue;
    private final List<Filter> filters;
    private int dataspaceHandle;
    private int layoutHandle;

    private Dataset(Hdf5File file, String path, long address, WritableObjectHeader header,
                    long[] shape, long[] maxShape, long[] chunkShape, Datatype type,
                    byte[] fillValue, List<Filter> filters, ChunkIndex index) {
        super(file, path, address, header);
        this.shape = shape;
        this.maxShape = maxShape;
        this.grid = new ChunkGrid(chunkShape, maxShape);
        this.type = type;
        this.fillValue = fillValue;
        this.filters = filters;
        this.index = index;
        this.chunkBytes = (int) (Shapes.elementCount(chunkShape) * type.size());
        this.contiguous = null;
    }

    /** A contiguous or compact dataset: read from a file, or written whole ({@code header}). */
    private Dataset(Hdf5File file, String path, long address, WritableObjectHeader header,
                    long[] shape, long[] maxShape, Datatype type, byte[] fillValue,
                    ContiguousData contiguous) {
        super(file, path, address, header);
        this.shape = shape;
        this.maxShape = maxShape;
        this.grid = null;
        this.index = null;
        this.chunkBytes = 0;
        this.contiguous = contiguous;
        this.type = type;
        this.fillValue = fillValue;
        this.filters = List.of();
    }

    static Dataset create(Hdf5File file, String path, DatasetSpec spec) {
        BlockFile blocks = file.blocks();
        long chunkBytes = spec.chunkBytes();
        boolean filtered = !spec.filters().isEmpty();
        ChunkRecordFormat format = filtered ? ChunkRecordFormat.filtered(chunkBytes)
                : ChunkRecordFormat.unfiltered();
        ChunkGrid grid = new ChunkGrid(spec.chunkShape(), spec.maxShape());
        ChunkIndex index;
        if (grid.unlimitedDimensions() > 1) {
            index = BTreeV2ChunkIndex.create(blocks, format, grid.rank(), chunkBytes);
        } else if (grid.unlimitedDimensions() == 1) {
            index = ExtensibleArrayChunkIndex.create(blocks, format, grid, chunkBytes);
        } else if (Arrays.equals(spec.shape(), spec.maxShape())
                && Arrays.equals(spec.shape(), spec.chunkShape())) {
            index = new SingleChunkIndex(grid.rank(), filtered, ChunkRecord.UNWRITTEN);
        } else {
            long entries = grid.maxChunkCount();
            if (entries > FixedArrayChunkIndex.MAX_ENTRIES) {
                throw new IllegalArgumentException(entries + " chunks exceed the "
                        + FixedArrayChunkIndex.MAX_ENTRIES + " a fixed array index holds here");
            }
            index = FixedArrayChunkIndex.create(blocks, format, grid, chunkBytes);
        }
        List<HeaderMessage> messages = new ArrayList<>();
        messages.add(HeaderMessage.of(DataspaceMessage.TYPE, 0,
                new DataspaceMessage(spec.shape(), spec.maxShape()).encode()));
        messages.add(HeaderMessage.of(DatatypeMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                DatatypeMessage.encode(spec.type())));
        messages.add(HeaderMessage.of(FillValueMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                new FillValueMessage(spec.fillValue()).encode()));
        if (filtered) {
            List<FilterPipelineMessage.Entry> entries = new ArrayList<>();
            for (Filter filter : spec.filters()) {
                entries.add(new FilterPipelineMessage.Entry(filter.id(), filter.flags(),
                        filter.clientData(spec.type().size())));
            }
            messages.add(HeaderMessage.of(FilterPipelineMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                    new FilterPipelineMessage(entries).encode()));
        }
        messages.add(HeaderMessage.of(DataLayoutMessage.TYPE, 0,
                layoutMessage(spec.chunkShape(), spec.type(), index).encode()));
        WritableObjectHeader header = new WritableObjectHeader(blocks, messages,
                SPARE_HEADER_BYTES);
        file.track(header);
        Dataset dataset = new Dataset(file, path, header.address(), header, spec.shape(),
                spec.maxShape(), spec.chunkShape(), spec.type(), spec.fillValue(),
                spec.filters(), index);
        dataset.dataspaceHandle = 0;
        dataset.layoutHandle = messages.size() - 1;
        file.track(dataset);
        return dataset;
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
        List<HeaderMessage> messages = List.of(
                HeaderMessage.of(DataspaceMessage.TYPE, 0,
                        new DataspaceMessage(shape, shape).encode()),
                HeaderMessage.of(DatatypeMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                        DatatypeMessage.encode(type)),
                HeaderMessage.of(FillValueMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                        new FillValueMessage(null).encode()),
                HeaderMessage.of(DataLayoutMessage.TYPE, 0,
                        new DataLayout.Contiguous(address, stored.length).encode()));
        WritableObjectHeader header = new WritableObjectHeader(blocks, messages,
                SPARE_HEADER_BYTES);
        file.track(header);
        return new Dataset(file, path, header.address(), header, shape.clone(), shape.clone(),
                type, null, ContiguousData.contiguous(blocks, header.address(), address,
                        stored.length, shape, type.size()));
    }

    private static DataLayoutMessage layoutMessage(long[] chunkShape, Datatype type,
                                                   ChunkIndex index) {
        return new DataLayoutMessage(chunkShape, type.size(), index.parameters(), index.address());
    }

    /** The dataset whose header {@code messages} were read at {@code address}. */
    static Dataset read(Hdf5File file, String path, long address, List<HeaderMessage> messages)
            throws IOException {
        Path name = file.blocks().path();
        DataspaceMessage space = null;
        Datatype type = null;
        FillValueMessage fill = null;
        FillValueMessage oldFill = new FillValueMessage(null);
        DataLayout layout = null;
        List<Filter> filters = List.of();
        for (HeaderMessage message : messages) {
            switch (message.type()) {
                case DataspaceMessage.TYPE -> space = DataspaceMessage.decode(
                        message.reader(name, "dataspace message"));
                case DatatypeMessage.TYPE -> type = datatype(file, message);
                case FillValueMessage.TYPE -> fill = FillValueMessage.decode(
                        message.reader(name, "fill value message"));
                case FillValueMessage.OLD_TYPE -> oldFill = FillValueMessage.decodeOld(
                        message.reader(name, "old fill value message"));
                case DataLayoutMessage.TYPE -> layout = DataLayout.decode(
                        message.reader(name, "data layout message"));
                case DataLayout.EXTERNAL_DATA_FILES_MESSAGE_TYPE -> throw
                        new UnsupportedFormatException(name, "the dataset at offset " + address
                                + " stores its elements in external files");
                case FilterPipelineMessage.TYPE -> filters = filters(name, address,
                        FilterPipelineMessage.decode(message.reader(name,
                                "filter pipeline message")));
                default -> { }
            }
        }
        if (space == null || type == null || layout == null) {
            throw new CorruptFileException(name, address, "object header", "messages",
                    "dataspace, datatype and data layout messages", "some missing");
        }
        byte[] fillValue = (fill != null ? fill : oldFill).value();
        if (fillValue != null && fillValue.length != type.size()) {
            throw new CorruptFileException(name, address, "fill value message", "size",
                    Integer.toString(type.size()), Integer.toString(fillValue.length));
        }
        Dataset dataset;
        if (layout instanceof DataLayoutMessage chunked) {
            checkLayout(name, address, space, type, chunked);
            ChunkIndex index = openIndex(file.blocks(), file.ranks(), space, type, chunked,
                    !filters.isEmpty());
            dataset = new Dataset(file, path, address, null, space.dimensions(),
                    space.maxDimensions(), chunked.chunkDimensions(), type, fillValue, filters,
                    index);
        } else {
            if (!filters.isEmpty()) {
                throw new CorruptFileException(name, address, "filter pipeline message",
                        "filters", "none (only chunked datasets are filtered)",
                        filters.size() + " filters");
            }
            dataset = new Dataset(file, path, address, null, space.dimensions(),
                    space.maxDimensions(), type, fillValue,
                    contiguousData(file.blocks(), address, space, type, layout));
        }
        dataset.readAttributes(messages);
        return dataset;
    }

    /** The datatype message's type, or the committed datatype it refers to when shared. */
    private static Datatype datatype(Hdf5File file, HeaderMessage message) throws IOException {
        LittleEndianReader in = message.reader(file.path(), "datatype message");
        if ((message.flags() & HeaderMessage.FLAG_SHARED) != 0) {
            return file.references().committedDatatype(SharedMessage.objectHeaderAddress(in));
        }
        return DatatypeMessage.decode(in);
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

    private static void checkLayout(Path name, long address, DataspaceMessage space,
                                    Datatype type, DataLayoutMessage layout)
            throws IOException {
        if (layout.rank() != space.rank() || layout.elementSize() != type.size()) {
            throw new CorruptFileException(name, address, "data layout message",
                    "dimensionality and element size", space.rank() + " and " + type.size(),
                    layout.rank() + " and " + layout.elementSize());
        }
        try {
            if (Shapes.elementCount(layout.chunkDimensions()) * type.size()
                    > DatasetSpec.MAX_CHUNK_BYTES) {
                throw new UnsupportedFormatException(name, "dataset at offset " + address
                        + " has chunks larger than " + DatasetSpec.MAX_CHUNK_BYTES + " bytes");
            }
            new ChunkGrid(layout.chunkDimensions(), space.maxDimensions());
            Shapes.elementCount(space.dimensions());
        } catch (ArithmeticException e) {
            throw new CorruptFileException(name, address, "dataspace message", "dimension sizes",
                    "a number of elements and chunks below 2^63", "an overflow");
        }
    }

    private static ChunkIndex openIndex(BlockFile blocks, BTreeV1Ranks ranks,
                                        DataspaceMessage space,
                                        Datatype type, DataLayoutMessage layout, boolean filtered)
            throws IOException {
        long chunkBytes = Shapes.elementCount(layout.chunkDimensions()) * type.size();
        ChunkGrid grid = new ChunkGrid(layout.chunkDimensions(), space.maxDimensions());
        ChunkIndexParameters parameters = layout.index();
        boolean arrayOrTree = parameters instanceof ChunkIndexParameters.FixedArray
                || parameters instanceof ChunkIndexParameters.ExtensibleArray
                || parameters instanceof ChunkIndexParameters.BTreeV2;
        if (arrayOrTree && !Addresses.isDefined(layout.indexAddress())) {
            return new UnallocatedChunkIndex(parameters);
        }
        if (parameters instanceof ChunkIndexParameters.SingleChunk single) {
            return new SingleChunkIndex(grid.rank(), filtered, new ChunkRecord(
                    layout.indexAddress(), filtered ? single.filteredSize() : chunkBytes,
                    single.filterMask()));
        }
        if (parameters instanceof ChunkIndexParameters.FixedArray) {
            return FixedArrayChunkIndex.open(blocks, layout.indexAddress(), grid, chunkBytes,
                    filtered);
        }
        if (parameters instanceof ChunkIndexParameters.ExtensibleArray array) {
            return ExtensibleArrayChunkIndex.open(blocks, layout.indexAddress(), grid, array,
                    chunkBytes, filtered);
        }
        if (parameters instanceof ChunkIndexParameters.BTreeV1) {
            return new BTreeV1ChunkIndex(blocks, layout.indexAddress(), layout.chunkDimensions(),
                    ranks.chunkNodeK());
        }
        if (parameters instanceof ChunkIndexParameters.Implicit) {
            return ImplicitChunkIndex.open(blocks, layout.indexAddress(), grid,
                    space.dimensions(), chunkBytes, filtered);
        }
        return BTreeV2ChunkIndex.open(blocks, layout.indexAddress(),
                (ChunkIndexParameters.BTreeV2) parameters, grid.rank(), chunkBytes, filtered);
    }

    private static List<Filter> filters(Path name, long address, FilterPipelineMessage pipeline)
            throws UnsupportedFormatException {
        List<Filter> filters = new ArrayList<>();
        for (FilterPipelineMessage.Entry entry : pipeline.filters()) {
            filters.add(switch (entry.id()) {
                case 1 -> Filter.deflate(entry.clientData().length > 0
                        ? Math.min(9, Math.max(0, entry.clientData()[0])) : 6);
                case 2 -> Filter.shuffle();
                case 3 -> Filter.fletcher32();
                default -> throw new UnsupportedFormatException(name, "dataset at offset "
                        + address + " uses filter " + entry.id() + "; supported: 1 (deflate), "
                        + "2 (shuffle), 3 (Fletcher-32)");
            });
        }
        return List.copyOf(filters);
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
        return requireChunked().chunkShape();
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
        requireChunked();
        return ChunkIndexType.ofCode(index.parameters().code());
    }

    private ChunkGrid requireChunked() {
        if (grid == null) {
            throw new IllegalStateException(path() + " is " + layout().name().toLowerCase()
                    + ", not chunked");
        }
        return grid;
    }

    /** @throws IllegalStateException the dataset is not chunked */
    ChunkGrid chunkGrid() {
        return requireChunked();
    }

    ChunkIndex chunkIndex() {
        return index;
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
        requireChunked();
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

    public void write(long[] start, long[] count, ByteBuffer data) throws IOException {
        requireWritable();
        requireChunked();
        long elements = checkSelection(start, count);
        if (data.remaining() != elements * type.size()) {
            throw new IllegalArgumentException("selection of " + elements + " elements needs "
                    + elements * type.size() + " bytes, got " + data.remaining());
        }
        byte[] source = new byte[data.remaining()];
        data.duplicate().get(source);
        forEachChunk(start, count, (scaled, chunkOrigin, overlap, within, inSelection) -> {
            ChunkRecord old = index.get(scaled);
            long[] chunkShape = grid.chunkShape();
            byte[] chunk;
            if (Arrays.equals(overlap, chunkShape)) {
                chunk = new byte[chunkBytes];
            } else {
                chunk = old.isWritten() ? readChunk(old) : filledChunk();
            }
            BoxCopy.copy(source, count, inSelection, chunk, chunkShape, within, overlap,
                    type.size());
            writeChunk(scaled, old, chunk);
        });
    }

    public void write(long[] start, long[] count, byte[] data) throws IOException {
        writeArray(start, count, data);
    }

    public void write(long[] start, long[] count, short[] data) throws IOException {
        writeArray(start, count, data);
    }

    public void write(long[] start, long[] count, int[] data) throws IOException {
        writeArray(start, count, data);
    }

    public void write(long[] start, long[] count, long[] data) throws IOException {
        writeArray(start, count, data);
    }

    public void write(long[] start, long[] count, float[] data) throws IOException {
        writeArray(start, count, data);
    }

    public void write(long[] start, long[] count, double[] data) throws IOException {
        writeArray(start, count, data);
    }

    private void writeArray(long[] start, long[] count, Object array) throws IOException {
        write(start, count, ByteBuffer.wrap(ElementCodec.encode(type, array)));
    }

    /** The hyperslab's elements, in the datatype's byte order (the buffer's order is set to it). */
    public ByteBuffer read(long[] start, long[] count) throws IOException {
        try {
            return readElements(start, count);
        } catch (CorruptFileException e) {
            throw e.of(path());
        }
    }

    private ByteBuffer readElements(long[] start, long[] count) throws IOException {
        file.requireOpen();
        long elements = checkSelection(start, count);
        byte[] target = new byte[(int) (elements * type.size())];
        if (contiguous != null) {
            contiguous.read(start, count, target, fillElement());
            return ByteBuffer.wrap(target).order(type.byteOrder());
        }
        forEachChunk(start, count, (scaled, chunkOrigin, overlap, within, inSelection) -> {
            ChunkRecord record = index.get(scaled);
            if (record.isWritten()) {
                BoxCopy.copy(readChunk(record), grid.chunkShape(), within, target, count,
                        inSelection, overlap, type.size());
            } else {
                BoxCopy.fill(target, count, inSelection, overlap, fillElement());
            }
        });
        return ByteBuffer.wrap(target).order(type.byteOrder());
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
        return (byte[]) readArray(start, count, byte[]::new);
    }

    public short[] readShorts(long[] start, long[] count) throws IOException {
        return (short[]) readArray(start, count, short[]::new);
    }

    public int[] readInts(long[] start, long[] count) throws IOException {
        return (int[]) readArray(start, count, int[]::new);
    }

    public long[] readLongs(long[] start, long[] count) throws IOException {
        return (long[]) readArray(start, count, long[]::new);
    }

    public float[] readFloats(long[] start, long[] count) throws IOException {
        return (float[]) readArray(start, count, float[]::new);
    }

    public double[] readDoubles(long[] start, long[] count) throws IOException {
        return (double[]) readArray(start, count, double[]::new);
    }

    private Object readArray(long[] start, long[] count,
                             java.util.function.IntFunction<Object> allocate) throws IOException {
        long elements = checkSelection(start, count);
        Object array = allocate.apply((int) elements);
        ElementCodec.requireMatch(type, array);
        ElementCodec.decode(type, read(start, count), array);
        return array;
    }

    /** Writes the chunk index and the layout message; called by the file's flush. */
    void flushIndex() throws IOException {
        index.flush();
        header.replace(layoutHandle, layoutMessage(grid.chunkShape(), type, index).encode());
    }

    // ---- chunk traversal and chunk I/O

    @FunctionalInterface
    private interface ChunkVisitor {
        /**
         * @param scaled      chunk coordinates (chunk index per dimension)
         * @param chunkOrigin the chunk's first element in dataset coordinates
         * @param overlap     size of the part of the chunk inside the selection
         * @param within      where that part starts inside the chunk
         * @param inSelection where that part starts inside the selection
         */
        void visit(long[] scaled, long[] chunkOrigin, long[] overlap, long[] within,
                   long[] inSelection) throws IOException;
    }

    /** Visits every chunk the selection overlaps, in row-major chunk order. */
    private void forEachChunk(long[] start, long[] count, ChunkVisitor visitor)
            throws IOException {
        int rank = shape.length;
        long[] first = new long[rank];
        long[] last = new long[rank];
        for (int d = 0; d < rank; d++) {
            if (count[d] == 0) {
                return;
            }
            first[d] = start[d] / grid.chunkSize(d);
            last[d] = (start[d] + count[d] - 1) / grid.chunkSize(d);
        }
        long[] scaled = first.clone();
        while (true) {
            long[] origin = new long[rank];
            long[] overlap = new long[rank];
            long[] within = new long[rank];
            long[] inSelection = new long[rank];
            for (int d = 0; d < rank; d++) {
                origin[d] = scaled[d] * grid.chunkSize(d);
                long from = Math.max(start[d], origin[d]);
                long to = Math.min(start[d] + count[d], origin[d] + grid.chunkSize(d));
                overlap[d] = to - from;
                within[d] = from - origin[d];
                inSelection[d] = from - start[d];
            }
            visitor.visit(scaled.clone(), origin, overlap, within, inSelection);
            int d = rank - 1;
            while (d >= 0 && ++scaled[d] > last[d]) {
                scaled[d] = first[d];
                d--;
            }
            if (d < 0) {
                return;
            }
        }
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

    private byte[] fillElement() {
        return fillValue != null ? fillValue : new byte[type.size()];
    }

    private byte[] filledChunk() {
        byte[] chunk = new byte[chunkBytes];
        if (fillValue != null) {
            for (int i = 0; i < chunkBytes; i += fillValue.length) {
                System.arraycopy(fillValue, 0, chunk, i, fillValue.length);
            }
        }
        return chunk;
    }

    /**
     * Visits every chunk with storage (see {@link ChunkIndex#forEachStoredChunk}).
     *
     * @throws IllegalStateException the dataset is not chunked
     */
    void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        requireChunked();
        index.forEachStoredChunk(visitor);
    }

    /** Reads, unfilters and checks the chunk {@code record} points at. */
    byte[] readChunk(ChunkRecord record) throws IOException {
        BlockFile blocks = file.blocks();
        if (record.storedSize() < 0 || record.storedSize() > Integer.MAX_VALUE) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk", "size",
                    "0.." + Integer.MAX_VALUE, Long.toUnsignedString(record.storedSize()));
        }
        byte[] bytes = blocks.read(record.address(), (int) record.storedSize(), "chunk");
        for (int i = filters.size() - 1; i >= 0; i--) {
            if ((record.filterMask() & (1 << i)) != 0) {
                continue;
            }
            try {
                bytes = filters.get(i).decode(bytes, type.size());
            } catch (IllegalArgumentException e) {
                throw new CorruptFileException(blocks.path(), record.address(), "chunk",
                        "filter " + filters.get(i).getClass().getSimpleName(),
                        "data the filter wrote", e.getMessage());
            }
        }
        if (bytes.length != chunkBytes) {
            throw new CorruptFileException(blocks.path(), record.address(), "chunk",
                    "unfiltered size", Integer.toString(chunkBytes),
                    Integer.toString(bytes.length));
        }
        return bytes;
    }

    /** Filters and stores a chunk, in place when its stored size is unchanged. */
    private void writeChunk(long[] scaled, ChunkRecord old, byte[] chunk) throws IOException {
        byte[] stored = chunk;
        for (Filter filter : filters) {
            stored = filter.encode(stored, type.size());
        }
        long address = old.isWritten() && old.storedSize() == stored.length ? old.address()
                : file.blocks().allocate(stored.length);
        file.blocks().write(address, stored);
        index.put(scaled, new ChunkRecord(address, stored.length, 0));
    }
}
