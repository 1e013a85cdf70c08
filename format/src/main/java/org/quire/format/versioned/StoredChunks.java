package org.quire.format.versioned;

import java.util.Set;

/**
 * The chunks one version of a dataset stores: the raw_data slots its mappings name (by their
 * first row), the dataset's chunk shape and element size. Two versions share a chunk when they
 * name the same slot.
 */
public record StoredChunks(Set<Long> slots, long[] chunkShape, int elementSize) {

    public StoredChunks {
        slots = Set.copyOf(slots);
        chunkShape = chunkShape.clone();
    }

    @Override
    public long[] chunkShape() {
        return chunkShape.clone();
    }

    /** The bytes of one slot: a whole chunk, edge chunks padded. */
    public long slotBytes() {
        long bytes = elementSize;
        for (long extent : chunkShape) {
            bytes *= extent;
        }
        return bytes;
    }

    /** The bytes of raw_data this version's chunks occupy. */
    public long bytes() {
        return slots.size() * slotBytes();
    }
}
