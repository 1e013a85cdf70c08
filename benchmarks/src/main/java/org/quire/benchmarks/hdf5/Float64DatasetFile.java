package org.quire.benchmarks.hdf5;

import java.io.Closeable;
import java.io.IOException;

/**
 * An open HDF5 file holding one 1-D chunked float64 dataset named {@value #DATASET}, as one
 * library under test writes or reads it. Element {@code i} of every benchmark dataset holds the
 * value {@code i}, so any read can be checked.
 */
public interface Float64DatasetFile extends Closeable {

    /** Name of the dataset in the root group. */
    String DATASET = "data";

    /** Current number of elements. */
    long length();

    /**
     * Writes {@code values} at {@code start}; an extensible dataset is first extended to
     * {@code start + values.length} when shorter.
     */
    void write(long start, double[] values) throws IOException;

    /** Reads {@code into.length} elements from {@code start}. */
    void read(long start, double[] into) throws IOException;

    /** Closes the file; a written file is complete on disk (in the page cache, not synced) afterwards. */
    @Override
    void close() throws IOException;
}
