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
        super(file, checksumOffset, structure, "checksum", hex(computed), hex(stored));
        this.stored = stored;
        this.computed = computed;
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
