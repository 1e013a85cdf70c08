package org.quire.benchmarks.hdf5;

import java.nio.file.Path;

/** The two chunk indexes benchmarked, and where each library's file of each lives. */
public enum DatasetLayout {
    /** Fixed size, no unlimited dimension: fixed array chunk index. */
    FIXED("fixed", false),
    /** Grown slab by slab, one unlimited dimension: extensible array chunk index. */
    EXTENSIBLE("extensible", true);

    final String label;
    final boolean extensible;

    DatasetLayout(String label, boolean extensible) {
        this.label = label;
        this.extensible = extensible;
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
        throw new IllegalArgumentException("unknown layout " + label + "; expected fixed or extensible");
    }
}
