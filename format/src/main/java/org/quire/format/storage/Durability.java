package org.quire.format.storage;

/**
 * When a writer forces its file to disk ({@link Storage#force(boolean)}, {@code fdatasync}): chosen in
 * HDF5's {@code WriteOptions} and per flush, carried out by the HDF5 metadata cache. Without a
 * force a flushed file survives the writer process (its bytes are in the operating system's
 * page cache) but not a crash of the node or its power.
 */
public enum Durability {

    /**
     * Never: flushes and close leave forcing to the operating system (libhdf5's behaviour).
     * One exception: a writer of a superblock 0 or 1 file forces the writing guard it sets at
     * open and the true end of file it writes at close (docs/hdf5.md, "The old format").
     */
    NONE(false, false),

    /** At close only: the last flush forces before and after the blocks that publish. */
    ON_CLOSE(false, true),

    /** At every flush, close included: each completed flush survives a power loss. */
    EVERY_FLUSH(true, true);

    private final boolean forcesAtFlush;
    private final boolean forcesAtClose;

    Durability(boolean forcesAtFlush, boolean forcesAtClose) {
        this.forcesAtFlush = forcesAtFlush;
        this.forcesAtClose = forcesAtClose;
    }

    /** Whether each flush forces. */
    public boolean forcesAtFlush() {
        return forcesAtFlush;
    }

    /** Whether the last flush, at close, forces. */
    public boolean forcesAtClose() {
        return forcesAtClose;
    }
}
