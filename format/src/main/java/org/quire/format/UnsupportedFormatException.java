package org.quire.format;

import java.nio.file.Path;

/**
 * A well-formed file uses a version or feature of its format that this implementation does not
 * read or write. It names the structure, where it is, what was found and what is supported:
 *
 * <pre>x.h5: unsupported superblock at offset 0: found version 4; supported: versions 0 to 3</pre>
 */
public class UnsupportedFormatException extends FormatException {

    /** {@link #offset()} of a feature that is not at one place in the file (a file's mode, say). */
    public static final long NO_OFFSET = -1;

    private final String structure;
    private final long offset;
    private final String found;
    private final String supported;

    /**
     * @param structure the structure as its specification names it ("superblock", "META1 flag1")
     * @param offset    absolute byte offset of the structure or field, or {@link #NO_OFFSET}
     * @param found     what the file holds ("version 4")
     * @param supported what this implementation reads ("versions 0 to 3")
     */
    public UnsupportedFormatException(Path file, String structure, long offset, String found, String supported) {
        super(file, "unsupported " + structure + (offset == NO_OFFSET ? "" : " at offset " + offset)
                + ": found " + found + "; supported: " + supported);
        this.structure = structure;
        this.offset = offset;
        this.found = found;
        this.supported = supported;
    }

    /**
     * This failure as one of {@code part} (an object's path, an attribute), named first:
     * "unsupported /vds: data layout message at offset ...". The fields are kept; the structure
     * gains the part's name.
     */
    public UnsupportedFormatException within(String part) {
        UnsupportedFormatException named = new UnsupportedFormatException(file(),
                part + ": " + structure, offset, found, supported);
        named.initCause(this);
        return named;
    }

    /** The structure that uses the unsupported version or feature. */
    public String structure() {
        return structure;
    }

    /** Absolute byte offset of the structure or field in {@link #file()}, or {@link #NO_OFFSET}. */
    public long offset() {
        return offset;
    }

    /** What the file holds: the version or feature found. */
    public String found() {
        return found;
    }

    /** The versions or features this implementation supports there. */
    public String supported() {
        return supported;
    }
}
