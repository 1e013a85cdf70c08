package org.quire.format.hangar;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.quire.format.hangar.UnresolvableRecordException.CollectionLayoutException;
import org.quire.format.hangar.UnresolvableRecordException.ShapeMismatchException;
import org.quire.format.hangar.UnresolvableRecordException.UnwrittenRowException;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.SwmrReadOptions;

/**
 * One open collection file {@code <UID>.hdf5} of a schema ({@link CollectionFileLayout}):
 * created and SWMR-written by a {@link CollectionWriter}, or SWMR-read by a {@link
 * RecordResolver}. Reading a record checks, in this order, that its collection exists, that the
 * collection is laid out for the schema, that the record's shape is the schema's, and that its
 * row was written.
 */
final class CollectionFile implements AutoCloseable {

    /** Says whether row {@code index} of collection {@code dataset} holds an array. */
    @FunctionalInterface
    interface WrittenRows {
        boolean holds(Dataset dataset, long collection, long index) throws IOException;
    }

    /** Writes one array's elements into the row selection of {@code dataset}. */
    @FunctionalInterface
    interface RowWrite {
        void into(Dataset dataset, long[] start, long[] count) throws IOException;
    }

    private final Hdf5File file;
    private final String uid;
    private final ArraySchema schema;

    private CollectionFile(Hdf5File file, String uid, ArraySchema schema) {
        this.file = file;
        this.uid = uid;
        this.schema = schema;
    }

    /**
     * Creates {@code <uid>.hdf5} in {@code directory} with its collections and root attributes,
     * then switches it to SWMR writing, as Hangar does before its first write.
     *
     * @throws java.nio.file.FileAlreadyExistsException the file exists (it is never replaced)
     */
    static CollectionFile create(Path directory, String uid, ArraySchema schema)
            throws IOException {
        Hdf5File file = Hdf5File.create(CollectionFileLayout.file(directory, uid));
        try {
            Group root = file.root();
            for (int collection = 0; collection < CollectionFileLayout.COLLECTION_COUNT;
                 collection++) {
                root.createDataset(CollectionFileLayout.datasetName(collection),
                        CollectionFileLayout.collectionSpec(schema));
            }
            for (Attribute attribute : CollectionFileLayout.rootAttributes(schema)) {
                root.setAttribute(attribute);
            }
            file.startSwmrWrite();
            return new CollectionFile(file, uid, schema);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Opens {@code <uid>.hdf5} as an SWMR reader (its writer may still be appending). */
    static CollectionFile openSwmr(Path path, String uid, ArraySchema schema,
                                   SwmrReadOptions options) throws IOException {
        return new CollectionFile(Hdf5File.openSwmr(path, options), uid, schema);
    }

    String uid() {
        return uid;
    }

    Path path() {
        return file.path();
    }

    /** Writes one array into row {@code index} of collection {@code collection}. */
    void write(long collection, long index, RowWrite write) throws IOException {
        Dataset dataset = file.root().dataset(CollectionFileLayout.datasetName(collection));
        write.into(dataset, new long[] {index, 0}, new long[] {1, schema.elementCount()});
    }

    /**
     * Rewrites the cursor attributes {@code next_location} and {@code collections_remaining},
     * as Hangar does when a checkout closes the file or the file is full.
     */
    void recordCursor(long collection, long index, long collectionsRemaining)
            throws IOException {
        for (Attribute attribute : CollectionFileLayout.cursorAttributes(collection, index,
                collectionsRemaining)) {
            file.root().rewriteAttribute(attribute);
        }
    }

    void flush() throws IOException {
        file.flush();
    }

    /**
     * The array {@code record} names, checked as the class comment says.
     *
     * @throws UnresolvableRecordException the record does not lead to an array of the schema
     */
    StoredArray read(LocatorRecord record, WrittenRows written) throws IOException {
        Dataset dataset = collection(record);
        requireSchemaLayout(dataset, record);
        requireSchemaShape(record);
        long rows = dataset.shape()[0];
        if (record.index() >= rows) {
            throw new UnwrittenRowException(path(), record, "row " + record.index()
                    + " is beyond the " + rows + " rows of collection " + dataset.path());
        }
        if (!written.holds(dataset, record.collection(), record.index())) {
            throw new UnwrittenRowException(path(), record, "row " + record.index()
                    + " of collection " + dataset.path() + " was never written"
                    + (file.isSwmrReader() ? " (or its writer has not flushed it yet)" : ""));
        }
        ByteBuffer elements = dataset.read(new long[] {record.index(), 0},
                new long[] {1, schema.elementCount()});
        byte[] bytes = new byte[elements.remaining()];
        elements.get(bytes);
        return new StoredArray(record, schema.dtype(), bytes);
    }

    /** Whether the chunk holding the row's first element was written: {@link WrittenRows}. */
    static boolean hasStoredChunk(Dataset dataset, long collection, long index)
            throws IOException {
        return dataset.isChunkWritten(index, 0);
    }

    private Dataset collection(LocatorRecord record) throws IOException {
        String name = CollectionFileLayout.datasetName(record.collection());
        if (!file.root().contains(name)) {
            throw new UnwrittenRowException(path(), record, "the file has no collection /"
                    + name + " (Hangar writes /0 to /"
                    + (CollectionFileLayout.COLLECTION_COUNT - 1) + ")");
        }
        return file.root().dataset(name);
    }

    private void requireSchemaLayout(Dataset dataset, LocatorRecord record)
            throws CollectionLayoutException {
        long[] expected = {CollectionFileLayout.COLLECTION_SIZE, schema.elementCount()};
        long[] shape = dataset.shape();
        boolean sameShape = shape.length == 2 && shape[1] == expected[1]
                && shape[0] <= expected[0];
        if (!sameShape || !dataset.type().equals(schema.dtype())) {
            throw new CollectionLayoutException(path(), record, "collection " + dataset.path()
                    + " is " + Arrays.toString(shape) + " " + ArraySchema.typeName(dataset.type())
                    + ", expected " + Arrays.toString(expected) + " "
                    + ArraySchema.typeName(schema.dtype())
                    + " (rows of " + expected[1] + " elements for the " + schema.describe()
                    + ")");
        }
    }

    private void requireSchemaShape(LocatorRecord record) throws ShapeMismatchException {
        long[] shape = record.shape();
        String elements;
        try {
            elements = Long.toString(Arrays.stream(shape).reduce(1, Math::multiplyExact));
        } catch (ArithmeticException e) {
            elements = "more than 2^63";
        }
        if (!elements.equals(Long.toString(schema.elementCount()))) {
            throw new ShapeMismatchException(path(), record, "its shape "
                    + SampleSchema.fixed(shape).text() + " has " + elements
                    + " elements, the rows of collection /" + record.collection() + " hold "
                    + schema.elementCount() + " (" + schema.describe() + ")");
        }
        if (!Arrays.equals(shape, schema.shape())) {
            throw new ShapeMismatchException(path(), record, "its shape "
                    + SampleSchema.fixed(shape).text() + " is not the schema's "
                    + schema.sampleSchema().text());
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
