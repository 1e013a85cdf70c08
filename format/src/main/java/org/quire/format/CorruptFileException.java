package org.quire.format;

import java.nio.file.Path;

/**
 * A structure in a file holds a value the format does not allow: a wrong signature, a bad
 * checksum, a count that cannot fit, a pointer beyond the end of the file, a truncated read.
 * The message names the file, the absolute byte offset of the offending field, the structure
 * and field, and what was expected and found, for example:
 *
 * <pre>data.sion: corrupt META1 at offset 4: endianness word expected 00 00 00 00 or 01 01 01 01, found 01 00 00 00</pre>
 */
public class CorruptFileException extends FormatException {

    private final long offset;
    private final String structure;
    private final String field;
    private final String expected;
    private final String found;

    public CorruptFileException(Path file, long offset, String structure, String field,
                                String expected, String found) {
        super(file, "corrupt " + structure + " at " + place(offset) + ": " + field
                + " expected " + expected + ", found " + found);
        this.offset = offset;
        this.structure = structure;
        this.field = field;
        this.expected = expected;
        this.found = found;
    }

    /**
     * "offset N"; a negative offset (a structure reached through an undefined address, all
     * bits set) is never printed as a number.
     */
    private static String place(long offset) {
        return offset >= 0 ? "offset " + offset : "an undefined address";
    }

    /** Absolute byte offset in {@link #file()} of the field that is wrong (negative: none). */
    public long offset() {
        return offset;
    }

    /** The on-disk structure, named as its specification names it (e.g. "META1", "superblock"). */
    public String structure() {
        return structure;
    }

    /** The field of {@link #structure()} that is wrong. */
    public String field() {
        return field;
    }

    /** What the format allows at that place. */
    public String expected() {
        return expected;
    }

    /** What the file holds there. */
    public String found() {
        return found;
    }
}
