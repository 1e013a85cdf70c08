package org.quire.format.sion;

/**
 * How a task's logical stream is structured, stored in the upper 32 bits of META1's flag1
 * (reference section 2.1 and 2.9).
 */
public enum KeyValueMode {
    /** Plain byte stream ({@code SION_KEYVAL_NONE}, 50). A stored 0 means the same. */
    NONE(50),
    /** Inline key-value records: 16-byte header (key, length) then the data ({@code SION_KEYVAL_INLINE}, 51). */
    INLINE(51);

    private final int code;

    KeyValueMode(int code) {
        this.code = code;
    }

    /** The SIONlib constant stored in flag1's upper half. */
    public int code() {
        return code;
    }

    /** flag1 as SIONlib writes it: {@code code << 32}. */
    public long flag1() {
        return (long) code << 32;
    }
}
