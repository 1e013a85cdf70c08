package org.quire.format.hdf5;

import java.nio.file.Path;

/**
 * A change SWMR writing does not allow: after {@link Hdf5File#startSwmrWrite()} a writer only
 * extends datasets, writes their elements and flushes. Creating a group, dataset or attribute
 * would change structures (link messages, object header chunks, heaps) that readers already
 * hold and never re-read, so they would miss it or read it half-written; libhdf5 1.10.8 lets
 * these through and corrupts its readers, Quire refuses them with nothing changed.
 */
public class SwmrWriteRefusedException extends IllegalStateException {

    private final transient Path file;

    public SwmrWriteRefusedException(Path file, String change) {
        super(file + ": cannot " + change + " while the file is open for SWMR writing "
                + "(startSwmrWrite was called): readers holding the file would not see it or "
                + "could read it half-written; create every group, dataset and attribute "
                + "before startSwmrWrite");
        this.file = file;
    }

    /** The file the refused change was for. */
    public Path file() {
        return file;
    }
}
