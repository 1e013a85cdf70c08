package org.quire.benchmarks.hdf5;

import java.nio.file.Path;
import java.util.List;

/** The datasets benchmarked (two chunk indexes, and compressed chunks), and where each library's file of each lives. */
public enum DatasetLayout {
    /** Fixed size, no unlimited dimension: fixed array chunk index. */
    FIXED("fixed", false, false),
    /** Grown slab by slab, one unlimited dimension: extensible array chunk index. */
    EXTENSIBLE("extensible", true, false),
    /** Fixed size, every chunk compressed with deflate (level {@value #DEFLATE_LEVEL}): fixed array chunk index. */
    DEFLATE("deflate", false, true);

    /** The deflate level of {@link #DEFLATE}: zlib's default, as h5py's and libhdf5's tools use it. */
    static final int DEFLATE_LEVEL = 6;

    /** The layouts whose write and read throughput {@link Hdf5Throughput} times. */
    static final List<DatasetLayout> UNFILTERED = List.of(FIXED, EXTENSIBLE);

    final String label;
    final boolean extensible;
    final boolean deflate;

    DatasetLayout(String label, boolean extensible, boolean deflate) {
        this.label = label;
        this.extensible = extensible;
        this.deflate = deflate;
    }

    /** The file {@code writer} wrote for this layout in {@code directory}. */
    Path file(Path directory, Hdf5Library writer) {
        return directory.resolve(label + "-" + writer.name() + ".h5");
    }

    static DatasetLayout named(String label) {
        for (DatasetLayout layout : values()) {
            if (layout.label.equals(label)) {
                return layout;
            }
        }
        throw new IllegalArgumentException("unknown layout " + label + "; expected fixed, extensible or deflate");
    }
}
