package org.quire.benchmarks.swmr;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** An HDF5 implementation under test: writes a record dataset in SWMR mode and reads it back. */
interface SwmrLibrary {

    /** Name of the dataset in the root group. */
    String DATASET = "records";

    /** Short name used in result lines and on the readers' command lines. */
    String name();

    /** Whether this library writes a dataset with {@code index}. */
    boolean supports(RecordIndex index);

    /**
     * Creates {@code file} (replacing it) with an empty record dataset indexed by {@code index}, chunks of
     * {@link RecordIndex#CHUNK_RECORDS} records, and switches it to SWMR writing.
     */
    Writer createSwmr(Path file, RecordIndex index) throws IOException;

    /** Opens {@code file}, which an SWMR writer has open, as an SWMR reader. */
    Reader openSwmr(Path file, RecordIndex index) throws IOException;

    /** Opens the closed {@code file} read-only. */
    Reader open(Path file, RecordIndex index) throws IOException;

    /** The SWMR writer of one record dataset. */
    interface Writer extends Closeable {

        /**
         * Extends the dataset by the {@code count} records in {@code records} (a heap buffer holding them from
         * index 0), writes them after the last one and flushes, so SWMR readers see them.
         */
        void append(ByteBuffer records, int count) throws IOException;

        /** Bytes the writer has handed to its storage so far (every file it writes), or -1 if not counted. */
        long storageBytes();
    }

    /** A reader of one record dataset. */
    interface Reader extends Closeable {

        /** Reads the dataset's extent again (SWMR readers: what the writer last flushed); returns it. */
        long refresh() throws IOException;

        /** Reads {@code count} records from record {@code start} into {@code into} (a heap buffer, from index 0). */
        void read(long start, int count, ByteBuffer into) throws IOException;
    }

    static SwmrLibrary named(String name) {
        return switch (name) {
            case "quire" -> new QuireSwmr();
            case "libhdf5" -> new LibHdf5Swmr();
            default -> throw new IllegalArgumentException("unknown library " + name + "; expected quire or libhdf5");
        };
    }
}
