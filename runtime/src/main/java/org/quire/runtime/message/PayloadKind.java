package org.quire.runtime.message;

/** What a message's bytes encode, so a receive of another kind fails instead of misreading them. */
public enum PayloadKind {
    BYTES(0, "byte[]"),
    INTS(1, "int[]"),
    LONGS(2, "long[]"),
    DOUBLES(3, "double[]");

    private final byte code;
    private final String javaType;

    PayloadKind(int code, String javaType) {
        this.code = (byte) code;
        this.javaType = javaType;
    }

    /** The kind's number on the wire (fixed here, not the declaration order). */
    public byte code() {
        return code;
    }

    /** The kind with {@code code}, or null when there is none. */
    public static PayloadKind ofCode(byte code) {
        for (PayloadKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return javaType;
    }
}
