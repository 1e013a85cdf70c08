package org.quire.format.hdf5.cache;

/**
 * The stages of a flush, declared in the order a flush writes them. A block that publishes
 * others is written in a later stage than what it publishes, so a reader that finds it finds
 * them: raw chunks, then the index and other metadata that point at them, then the object
 * header whose dataspace makes the new elements part of the dataset, then the superblock.
 * A flush dependency never points from an earlier stage to a later one.
 */
public enum FlushStage {

    /** Raw chunk bytes, written by the chunk store, never by the cache ({@link ChunkProxy}). */
    RAW_DATA(false),

    /** Metadata reached through an object header: chunk index blocks, heaps, continuations. */
    METADATA(false),

    /** Object headers: a dataset's header carries the dataspace that publishes its elements. */
    OBJECT_HEADER(true),

    /** The superblock: end of file address and the consistency flags, written last. */
    SUPERBLOCK(true);

    private final boolean publishes;

    FlushStage(boolean publishes) {
        this.publishes = publishes;
    }

    /**
     * Whether writing an entry of this stage makes earlier writes visible to readers: a flush
     * that must be durable forces the file before the first entry of such a stage.
     */
    public boolean publishes() {
        return publishes;
    }
}
