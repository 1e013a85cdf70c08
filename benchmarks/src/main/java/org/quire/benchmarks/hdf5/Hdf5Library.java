package org.quire.benchmarks.hdf5;

import java.io.IOException;
import java.nio.file.Path;

/** An HDF5 implementation under test: creates and opens {@link Float64DatasetFile}s. */
public interface Hdf5Library {

    /** Short name used in result lines and JMH parameters. */
    String name();

    /**
     * Creates {@code file} (replacing it) in the latest file format with one chunked float64 dataset of
     * {@code layout}: {@code length} elements and a fixed array chunk index, or, when extensible, 0 elements
     * growing without limit and an extensible array index; no filters, or deflate alone.
     */
    Float64DatasetFile create(Path file, long length, int chunkElements, DatasetLayout layout) throws IOException;

    /** Opens {@code file} read-only. */
    Float64DatasetFile open(Path file) throws IOException;

    /**
     * The library named {@code name}: {@code quire} (its default chunk cache, libhdf5's size; unfiltered
     * chunks bypass it), {@code libhdf5} (default chunk cache of 1 MiB per dataset) or
     * {@code libhdf5-nocache} (chunk cache disabled: reads go to the file).
     */
    static Hdf5Library named(String name) {
        return switch (name) {
            case "quire" -> new QuireHdf5();
            case "libhdf5" -> new LibHdf5(true);
            case "libhdf5-nocache" -> new LibHdf5(false);
            default -> throw new IllegalArgumentException("unknown HDF5 library " + name
                    + "; expected quire, libhdf5 or libhdf5-nocache");
        };
    }
}
