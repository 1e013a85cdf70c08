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
    private final String object;

    public CorruptFileException(Path file, long offset, String structure, String field,
                                String expected, String found) {
        this(file, offset, structure, field, expected, found, null);
    }

    /**
     * @param object what the structure belongs to, e.g. an HDF5 object's path, or null; the
     *               message names it after the structure
     */
    public CorruptFileException(Path file, long offset, String structure, String field,
                                String expected, String found, String object) {
        super(file, "corrupt " + structure + (object != null ? " of " + object : "") + " at "
                + place(offset) + ": " + field + " expected " + expected + ", found " + found);
        this.offset = offset;
        this.structure = structure;
        this.field = field;
        this.expected = expected;
        this.found = found;
        this.object = object;
    }

    /**
     * This failure, met while reading {@code object} (an HDF5 object's path, say), with a
     * message that names it; itself if it already names one.
     */
    public CorruptFileException of(String object) {
        if (this.object != null) {
            return this;
        }
        CorruptFileException named = new CorruptFileException(file(), offset, structure, field,
                expected, found, object);
        named.initCause(this);
        return named;
    }

    /** What the structure belongs to (e.g. an HDF5 object's path), or null if not named. */
    public String object() {
        return object;
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
