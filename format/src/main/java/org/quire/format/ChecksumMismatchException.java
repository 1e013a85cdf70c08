package org.quire.format;

import java.nio.file.Path;

/**
 * A metadata block's stored Jenkins lookup3 checksum differs from the one computed over its
 * bytes: the block is torn (a writer is rewriting it) or damaged.
 */
public class ChecksumMismatchException extends CorruptFileException {

    private final int stored;
    private final int computed;

    public ChecksumMismatchException(Path file, long checksumOffset, String structure,
                                     int stored, int computed) {
        this(file, checksumOffset, structure, stored, computed, null);
    }

    /**
     * @param object what the block belongs to, e.g. an HDF5 object's path, or null; the message
     *               names it after the structure
     */
    public ChecksumMismatchException(Path file, long checksumOffset, String structure,
                                     int stored, int computed, String object) {
        super(file, checksumOffset, structure, "checksum", hex(computed), hex(stored), object);
        this.stored = stored;
        this.computed = computed;
    }

    @Override
    public ChecksumMismatchException of(String object) {
        if (object() != null) {
            return this;
        }
        ChecksumMismatchException named = new ChecksumMismatchException(file(), offset(),
                structure(), stored, computed, object);
        named.initCause(this);
        return named;
    }

    private static String hex(int value) {
        return String.format("0x%08x", value);
    }

    /** The checksum the file holds. */
    public int stored() {
        return stored;
    }

    /** The checksum of the block's bytes as read. */
    public int computed() {
        return computed;
    }
}
