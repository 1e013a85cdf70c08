package org.quire.format.hdf5.layout;

/**
 * Where one chunk is stored: its address, its stored (filtered) size in bytes and the filter
 * mask (bit {@code i} set: filter {@code i} of the pipeline was skipped for this chunk). An
 * undefined address means the chunk was never written and reads as the fill value.
 */
public record ChunkRecord(long address, long storedSize, int filterMask) {

    public static final ChunkRecord UNWRITTEN = new ChunkRecord(Addresses.UNDEFINED, 0, 0);

    public boolean isWritten() {
        return Addresses.isDefined(address);
    }
}
