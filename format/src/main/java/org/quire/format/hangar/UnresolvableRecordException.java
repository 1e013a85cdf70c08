package org.quire.format.hangar;

import java.nio.file.Path;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;

/**
 * A well-formed HDF5_00 record that does not lead to an array of the schema: one line naming
 * the collection file, the record and what is wrong, e.g.
 * <pre>/data/00/WzUtdu.hdf5: record 00:WzUtdu$3 199*20 2 3: collection /3 row 199 was never written</pre>
 * Subclasses say which failure it is.
 */
public class UnresolvableRecordException extends FormatException {

    private final LocatorRecord record;

    UnresolvableRecordException(Path file, LocatorRecord record, String problem) {
        super(file, "record " + record.format() + ": " + problem);
        this.record = record;
    }

    UnresolvableRecordException(Path file, LocatorRecord record, String problem, Throwable cause) {
        super(file, "record " + record.format() + ": " + problem, cause);
        this.record = record;
    }

    /** The record that could not be resolved. */
    public LocatorRecord record() {
        return record;
    }

    /** The record's collection file {@code <UID>.hdf5} does not exist. */
    public static final class CollectionFileMissingException extends UnresolvableRecordException {
        CollectionFileMissingException(Path file, LocatorRecord record) {
            super(file, record, "no such collection file (expected " + file.getFileName()
                    + " in " + file.toAbsolutePath().getParent() + ")");
        }
    }

    /**
     * The record names a collection or row that holds no array: beyond the file's collections
     * or rows, or a row never written (or, to a reader following a writer, not yet flushed).
     */
    public static final class UnwrittenRowException extends UnresolvableRecordException {
        UnwrittenRowException(Path file, LocatorRecord record, String problem) {
            super(file, record, problem);
        }
    }

    /** The record's shape is not the schema's, or needs another number of elements than a row. */
    public static final class ShapeMismatchException extends UnresolvableRecordException {
        ShapeMismatchException(Path file, LocatorRecord record, String problem) {
            super(file, record, problem);
        }
    }

    /**
     * The collection file is not laid out for the schema: a collection dataset of another
     * element type, width or shape than the schema gives (reference §4.2).
     */
    public static final class CollectionLayoutException extends UnresolvableRecordException {
        CollectionLayoutException(Path file, LocatorRecord record, String problem) {
            super(file, record, problem);
        }
    }

    /**
     * The collection file is damaged: a block or chunk the record leads through fails its
     * check (the {@link CorruptFileException} is the cause).
     */
    public static final class DamagedCollectionFileException extends UnresolvableRecordException {
        DamagedCollectionFileException(Path file, LocatorRecord record, CorruptFileException cause) {
            super(file, record, "damaged collection file: " + withoutFile(cause.getMessage(), file),
                    cause);
        }

        private static String withoutFile(String message, Path file) {
            String prefix = file + ": ";
            return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        }
    }
}
