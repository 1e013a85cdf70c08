package org.quire.format.hangar;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A writer checkout of Hangar's {@code HDF5_00} backend for one column: stores arrays of a fixed
 * {@link ArraySchema} in collection files {@code <UID>.hdf5} of a data directory (Hangar's
 * {@code .hangar/data/00/}) and hands out each array's {@link LocatorRecord}, as Hangar v0.3 does
 * (reference versioned-hdf5-layout.md §4.2):
 * <ul>
 * <li>the first write creates a file with a new random 6-character UID, every collection, the
 *     root attributes, and switches it to SWMR writing; that array goes to collection 0, row 0;
 * <li>each later write goes to the next row, at row 250 to row 0 of the next collection; when
 *     that leaves one collection (so {@code /99} is never written: 24,750 arrays a file) the file
 *     is closed and a new one started;
 * <li>a new checkout always starts a new file: files are never appended to again.
 * </ul>
 * Arrays written reach other processes ({@link RecordResolver}, h5py {@code swmr=True}) at the
 * next {@link #flush()} (or {@link #close()}); {@link #read} reads them back in this process at
 * once. Not thread-safe.
 */
public final class CollectionWriter implements AutoCloseable {

    private static final String UID_CHARACTERS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    /** UIDs tried before giving up on a directory where each one exists already. */
    private static final int UID_ATTEMPTS = 100;

    private final Path directory;
    private final ArraySchema schema;
    private final SecureRandom random = new SecureRandom();
    private final List<String> uids = new ArrayList<>();
    /** The file being written; null before the first write. */
    private CollectionFile current;
    /** Where the last array went in {@link #current}, and how many collections it has left. */
    private long collection;
    private long index;
    private long collectionsRemaining;
    /** Whether {@link #current} holds no array yet: the next goes to (0, 0). */
    private boolean empty;
    /** Reads records of files this checkout closed, or of other checkouts. */
    private final RecordResolver resolver;
    private boolean closed;

    private CollectionWriter(Path directory, ArraySchema schema) {
        this.directory = directory;
        this.schema = schema;
        this.resolver = new RecordResolver(directory, schema);
    }

    /**
     * A writer checkout storing {@code schema}'s arrays in {@code directory}, which must exist.
     * No file is created before the first write.
     */
    public static CollectionWriter checkout(Path directory, ArraySchema schema)
            throws IOException {
        Objects.requireNonNull(schema, "schema");
        if (!Files.isDirectory(directory)) {
            throw new java.nio.file.NotDirectoryException(directory + " (the data directory "
                    + "of the collection files)");
        }
        return new CollectionWriter(directory, schema);
    }

    public ArraySchema schema() {
        return schema;
    }

    /** The UIDs of the files this checkout created, oldest first. */
    public List<String> uids() {
        return List.copyOf(uids);
    }

    /**
     * Stores one array given as its elements' bytes, little-endian, C order: exactly
     * {@code prod(shape) * itemsize} bytes must remain (the position is not moved).
     */
    public LocatorRecord write(ByteBuffer elements) throws IOException {
        long bytes = schema.elementCount() * schema.dtype().size();
        if (elements.remaining() != bytes) {
            throw new IllegalArgumentException("an array of the " + schema.describe() + " has "
                    + bytes + " bytes, got " + elements.remaining());
        }
        ByteBuffer little = elements.slice().order(ByteOrder.LITTLE_ENDIAN);
        return write((dataset, start, count) -> dataset.write(start, count, little));
    }

    /** Stores one array of a float64 schema, its elements in C order. */
    public LocatorRecord write(double[] elements) throws IOException {
        requireLength(elements.length);
        return write((dataset, start, count) -> dataset.write(start, count, elements));
    }

    /** Stores one array of a float32 schema, its elements in C order. */
    public LocatorRecord write(float[] elements) throws IOException {
        requireLength(elements.length);
        return write((dataset, start, count) -> dataset.write(start, count, elements));
    }

    /** Stores one array of an int64 or uint64 schema, its elements in C order. */
    public LocatorRecord write(long[] elements) throws IOException {
        requireLength(elements.length);
        return write((dataset, start, count) -> dataset.write(start, count, elements));
    }

    /** Stores one array of an int32 or uint32 schema, its elements in C order. */
    public LocatorRecord write(int[] elements) throws IOException {
        requireLength(elements.length);
        return write((dataset, start, count) -> dataset.write(start, count, elements));
    }

    private void requireLength(int length) {
        if (length != schema.elementCount()) {
            throw new IllegalArgumentException("an array of the " + schema.describe() + " has "
                    + schema.elementCount() + " elements, got " + length);
        }
    }

    /**
     * Writes at the position after the cursor, as Hangar's {@code write_data} moves it, and
     * moves the cursor there once the write succeeded (a failed write leaves no row counted).
     */
    private LocatorRecord write(CollectionFile.RowWrite rowWrite) throws IOException {
        requireOpen();
        if (current != null && !empty && index + 1 == CollectionFileLayout.COLLECTION_SIZE
                && collectionsRemaining - 1 <= 1) {
            // Full: record where Hangar's cursor stands, and start a new file.
            current.recordCursor(collection + 1, 0, collectionsRemaining - 1);
            current.close();
            current = null;
        }
        if (current == null) {
            startFile();
        }
        boolean nextRow = !empty && index + 1 < CollectionFileLayout.COLLECTION_SIZE;
        long nextCollection = empty || nextRow ? collection : collection + 1;
        long nextIndex = empty ? 0 : nextRow ? index + 1 : 0;
        current.write(nextCollection, nextIndex, rowWrite);
        if (nextCollection != collection) {
            collectionsRemaining--;
        }
        collection = nextCollection;
        index = nextIndex;
        empty = false;
        return new LocatorRecord(current.uid(), collection, index, schema.shape());
    }

    private void startFile() throws IOException {
        for (int attempt = 0; attempt < UID_ATTEMPTS; attempt++) {
            String uid = randomUid();
            try {
                current = CollectionFile.create(directory, uid, schema);
            } catch (FileAlreadyExistsException taken) {
                continue;
            }
            uids.add(uid);
            collection = 0;
            index = 0;
            collectionsRemaining = CollectionFileLayout.COLLECTION_COUNT;
            empty = true;
            return;
        }
        throw new IOException(directory + ": " + UID_ATTEMPTS + " random UIDs in a row name "
                + "existing collection files");
    }

    private String randomUid() {
        StringBuilder uid = new StringBuilder(CollectionFileLayout.UID_LENGTH);
        for (int i = 0; i < CollectionFileLayout.UID_LENGTH; i++) {
            uid.append(UID_CHARACTERS.charAt(random.nextInt(UID_CHARACTERS.length())));
        }
        return uid.toString();
    }

    /** Makes every array written so far visible to SWMR readers of the file being written. */
    public void flush() throws IOException {
        requireOpen();
        if (current != null) {
            current.flush();
        }
    }

    /**
     * The array {@code record} names: from the file being written when it is that file's
     * (unflushed arrays too), else through a {@link RecordResolver} of the directory.
     *
     * @throws UnresolvableRecordException the record does not lead to an array of the schema
     */
    public StoredArray read(LocatorRecord record) throws IOException {
        requireOpen();
        if (current != null && record.uid().equals(current.uid())) {
            return current.read(record, (dataset, c, i) -> !empty && (c < collection
                    || c == collection && i <= index));
        }
        return resolver.read(record);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the writer checkout of " + directory
                    + " is closed");
        }
    }

    /**
     * Records the cursor in the file being written (Hangar's {@code next_location} and {@code
     * collections_remaining}), closes it (flushing it), and every file read.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (CollectionFile last = current) {
            if (last != null) {
                last.recordCursor(collection, index, collectionsRemaining);
            }
        } finally {
            resolver.close();
        }
    }
}
