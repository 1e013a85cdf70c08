package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.DataLayout;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.FillValueMessage;
import org.quire.format.hdf5.layout.FilterPipelineMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.StoredReferences;

/**
 * What a dataset's object header says about it: dataspace, datatype, fill value, layout and
 * filters, decoded from its messages and checked against each other; and the messages of a new
 * dataset, in the order Quire writes them.
 *
 * @param fillValue the fill value's bytes, or null for the default (all bytes zero)
 */
record DatasetHeader(DataspaceMessage space, Datatype type, byte[] fillValue, DataLayout layout,
                     List<Filter> filters) {

    /** Position of the dataspace message among a new dataset's {@link #messages}. */
    static final int DATASPACE_MESSAGE = 0;

    /**
     * The messages of a new dataset of {@code spec} whose layout is {@code layout}: dataspace
     * first ({@link #DATASPACE_MESSAGE}), data layout last.
     */
    static List<HeaderMessage> messages(DatasetSpec spec, DataLayoutMessage layout) {
        List<HeaderMessage> messages = new ArrayList<>();
        messages.add(HeaderMessage.of(DataspaceMessage.TYPE, 0,
                new DataspaceMessage(spec.shape(), spec.maxShape()).encode()));
        messages.add(HeaderMessage.of(DatatypeMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                Datatypes.encode(spec.type())));
        messages.add(HeaderMessage.of(FillValueMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                new FillValueMessage(spec.fillValue()).encode()));
        if (!spec.filters().isEmpty()) {
            messages.add(HeaderMessage.of(FilterPipelineMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                    new FilterPipeline(spec.filters(), spec.type().size())
                            .message((int) spec.chunkBytes()).encode()));
        }
        messages.add(HeaderMessage.of(DataLayoutMessage.TYPE, 0, layout.encode()));
        return messages;
    }

    /**
     * The messages of a dataset of {@code type} and {@code shape} that cannot grow, stored as
     * the layout message {@code layout} says: written whole and contiguous, as h5py writes
     * {@code create_dataset(name, data=...)} (fill value null: the default), or virtual; as
     * libhdf5 writes them.
     */
    static List<HeaderMessage> fixedShapeMessages(Datatype type, long[] shape, byte[] fillValue,
                                                  byte[] layout) {
        return List.of(
                HeaderMessage.of(DataspaceMessage.TYPE, 0,
                        new DataspaceMessage(shape, shape).encode()),
                HeaderMessage.of(DatatypeMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                        Datatypes.encode(type)),
                HeaderMessage.of(FillValueMessage.TYPE, HeaderMessage.FLAG_CONSTANT,
                        new FillValueMessage(fillValue).encode()),
                HeaderMessage.of(DataLayoutMessage.TYPE, 0, layout));
    }

    /**
     * The header of a dataset whose {@code messages} were read at {@code address}; a shared
     * datatype is resolved through {@code references}.
     */
    static DatasetHeader decode(Path name, long address, List<HeaderMessage> messages,
                                StoredReferences references) throws IOException {
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
                case DatatypeMessage.TYPE -> type = Datatypes.decode(message, name, references);
                case FillValueMessage.TYPE -> fill = FillValueMessage.decode(
                        message.reader(name, "fill value message"));
                case FillValueMessage.OLD_TYPE -> oldFill = FillValueMessage.decodeOld(
                        message.reader(name, "old fill value message"));
                case DataLayoutMessage.TYPE -> layout = DataLayout.decode(
                        message.reader(name, "data layout message"));
                case DataLayout.EXTERNAL_DATA_FILES_MESSAGE_TYPE -> throw
                        new UnsupportedFormatException(name, "dataset object header", address,
                                "an external data files message (elements in external files)",
                                "elements stored in the file itself");
                case FilterPipelineMessage.TYPE -> filters = FilterPipeline.filters(name, address,
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
        if (layout instanceof DataLayoutMessage chunked) {
            checkChunkedLayout(name, address, space, type, chunked);
        } else if (!filters.isEmpty()) {
            throw new CorruptFileException(name, address, "filter pipeline message",
                    "filters", "none (only chunked datasets are filtered)",
                    filters.size() + " filters");
        }
        return new DatasetHeader(space, type, fillValue, layout, filters);
    }

    private static void checkChunkedLayout(Path name, long address, DataspaceMessage space,
                                           Datatype type, DataLayoutMessage layout)
            throws IOException {
        if (layout.rank() != space.rank() || layout.elementSize() != type.size()) {
            throw new CorruptFileException(name, address, "data layout message",
                    "dimensionality and element size", space.rank() + " and " + type.size(),
                    layout.rank() + " and " + layout.elementSize());
        }
        try {
            long chunkBytes = Shapes.elementCount(layout.chunkDimensions()) * type.size();
            if (chunkBytes > DatasetSpec.MAX_CHUNK_BYTES) {
                throw new UnsupportedFormatException(name, "chunk size of the data layout message",
                        address, "chunks of " + chunkBytes + " bytes", "chunks of at most "
                        + DatasetSpec.MAX_CHUNK_BYTES + " bytes");
            }
            new ChunkGrid(layout.chunkDimensions(), space.maxDimensions());
            Shapes.elementCount(space.dimensions());
        } catch (ArithmeticException e) {
            throw new CorruptFileException(name, address, "dataspace message", "dimension sizes",
                    "a number of elements and chunks below 2^63", "an overflow");
        }
    }
}
