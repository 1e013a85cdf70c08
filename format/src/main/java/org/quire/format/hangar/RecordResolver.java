package org.quire.format.hangar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.quire.format.CorruptFileException;
import org.quire.format.hangar.UnresolvableRecordException.CollectionFileMissingException;
import org.quire.format.hangar.UnresolvableRecordException.DamagedCollectionFileException;
import org.quire.format.hangar.UnresolvableRecordException.UnwrittenRowException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.SwmrReadOptions;
import org.quire.format.hdf5.WriterStatus;

/**
 * Reads the arrays HDF5_00 records name from the collection files of a data directory, for one
 * {@link ArraySchema}. Files are opened as SWMR readers (as Hangar's readers open them:
 * {@code swmr=True, libver='latest'}) the first time a record names them and kept open, so a
 * file a writer is still appending to is followed: a record whose row is not there yet makes
 * the resolver refresh that collection once and look again. Files Quire, Hangar or h5py wrote
 * in Hangar's layout (reference versioned-hdf5-layout.md §4.2) are read alike. A file opened
 * while no writer is alive ({@link Hdf5File#writerStatus}) is read without SWMR retries, so a
 * damaged one fails at once; a writer starting on it later is not followed through torn blocks.
 * A damaged file is {@link DamagedCollectionFileException}, naming the record. Not
 * thread-safe.
 */
public final class RecordResolver implements AutoCloseable {

    private final Path directory;
    private final ArraySchema schema;
    private final Map<String, CollectionFile> open = new LinkedHashMap<>();

    /** A resolver of {@code schema}'s records in {@code directory} (Hangar's data/00/). */
    public RecordResolver(Path directory, ArraySchema schema) {
        this.directory = directory;
        this.schema = schema;
    }

    /**
     * The array of the record {@code text}, parsed in any of Hangar's dialects with its shape
     * checked against the schema.
     *
     * @throws MalformedRecordException     the text is not a record of the schema's shape
     * @throws UnresolvableRecordException  the record does not lead to an array of the schema
     */
    public StoredArray read(String text) throws IOException {
        return read(LocatorRecord.parse(text, schema.sampleSchema()));
    }

    /**
     * The array {@code record} names: the first {@code prod(shape)} elements of its row. A v0.4
     * or v0.5 record's checksum is not verified.
     *
     * @throws UnresolvableRecordException the record does not lead to an array of the schema:
     *         its file is missing, its collection or row holds no array, its shape is not the
     *         schema's, or its collection is laid out for another schema
     */
    public StoredArray read(LocatorRecord record) throws IOException {
        try {
            CollectionFile file = file(record);
            try {
                return file.read(record, CollectionFile::hasStoredChunk);
            } catch (UnwrittenRowException notYet) {
                // The writer may have flushed it since this reader last looked.
                return file.read(record, (dataset, collection, index) -> {
                    dataset.refresh();
                    return CollectionFile.hasStoredChunk(dataset, collection, index);
                });
            }
        } catch (CorruptFileException damaged) {
            throw new DamagedCollectionFileException(CollectionFileLayout.file(directory,
                    record.uid()), record, damaged);
        }
    }

    private CollectionFile file(LocatorRecord record) throws IOException {
        CollectionFile file = open.get(record.uid());
        if (file == null) {
            Path path = CollectionFileLayout.file(directory, record.uid());
            if (!Files.isRegularFile(path)) {
                throw new CollectionFileMissingException(path, record);
            }
            // Blocks fail their checks again and again only if damaged, or while a live writer
            // rewrites them: with no writer, one read says it (no second of retries).
            boolean writing = Hdf5File.writerStatus(path).state() == WriterStatus.State.ALIVE;
            file = CollectionFile.openSwmr(path, record.uid(), schema, writing
                    ? SwmrReadOptions.DEFAULT : SwmrReadOptions.DEFAULT.withAttempts(1, Duration.ZERO));
            open.put(record.uid(), file);
        }
        return file;
    }

    /** Closes every file opened. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (CollectionFile file : open.values()) {
            try {
                file.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
