package org.quire.format.sion;

import java.nio.ByteOrder;
import java.util.Optional;

/**
 * The 4-byte endianness word of META1 (reference section 2.1 and 2.6).
 *
 * <pre>
 *   byte:    0          1             2             3
 *         +----------+-------------+-------------+----------+
 *         | metadata | user data   | user data   | metadata |
 *         | 0 = LE   | 0 = LE      | 0 = LE      | 0 = LE   |
 *         | 1 = BE   | 1 = BE      | 1 = BE      | 1 = BE   |
 *         +----------+-------------+-------------+----------+
 * </pre>
 *
 * <p>The word is symmetric so that it reads the same in either byte order: a little-endian
 * writer with default user data writes {@code 00 00 00 00}, a big-endian one {@code 01 01 01 01}.
 * Metadata byte order is that of the writer; all META1/META2/mapping integers use it. The user-data
 * byte order is only a declaration: SIONlib never converts user data.
 *
 * @param metadataOrder byte order of every metadata integer in the file
 * @param userDataOrder byte order the writer declared for the user data
 */
public record EndiannessWord(ByteOrder metadataOrder, ByteOrder userDataOrder) {

    /** Length of the word in bytes. */
    public static final int LENGTH = 4;

    /** The four bytes as stored in the file. */
    public byte[] toBytes() {
        byte metadata = flag(metadataOrder);
        byte userData = flag(userDataOrder);
        return new byte[] {metadata, userData, userData, metadata};
    }

    /**
     * Decodes the stored bytes, or returns empty if they are not a symmetric word of 0/1 bytes
     * (the caller reports that as corruption).
     */
    public static Optional<EndiannessWord> parse(byte[] stored) {
        if (stored.length != LENGTH || stored[0] != stored[3] || stored[1] != stored[2]
                || !isFlag(stored[0]) || !isFlag(stored[1])) {
            return Optional.empty();
        }
        return Optional.of(new EndiannessWord(order(stored[0]), order(stored[1])));
    }

    /** Hex form as in error messages and the test vectors, e.g. {@code 00 01 01 00}. */
    public static String hex(byte[] stored) {
        StringBuilder text = new StringBuilder();
        for (byte b : stored) {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(String.format("%02x", b & 0xff));
        }
        return text.toString();
    }

    private static boolean isFlag(byte b) {
        return b == 0 || b == 1;
    }

    private static byte flag(ByteOrder order) {
        return (byte) (order == ByteOrder.BIG_ENDIAN ? 1 : 0);
    }

    private static ByteOrder order(byte flag) {
        return flag == 1 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }
}
