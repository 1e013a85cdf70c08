package org.quire.format.hdf5.layout;

import java.nio.file.Path;
import java.util.HexFormat;

import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * The one check every metadata block passes before any of its fields is used: signature,
 * version, then the Jenkins lookup3 checksum in its last four bytes over all bytes before them.
 */
public final class MetadataValidator {

    public static final int CHECKSUM_SIZE = 4;

    private MetadataValidator() {
    }

    /**
     * Verifies {@code block}, the complete bytes of one block read at {@code address}.
     *
     * @throws CorruptFileException       the signature is wrong or the block too short
     * @throws UnsupportedFormatException the version is one this code does not know
     * @throws ChecksumMismatchException  the checksum does not match the bytes
     */
    public static void verify(Path file, long address, byte[] block, BlockIdentity identity)
            throws CorruptFileException, UnsupportedFormatException {
        int minimum = identity.prefixLength() + CHECKSUM_SIZE;
        if (block.length < minimum) {
            throw new CorruptFileException(file, address, identity.structure(), "block size",
                    "at least " + minimum + " bytes", block.length + " bytes");
        }
        verifyPrefix(file, address, block, identity);
        int checksumAt = block.length - CHECKSUM_SIZE;
        int stored = storedChecksum(block);
        int computed = JenkinsLookup3.checksum(block, 0, checksumAt);
        if (stored != computed) {
            throw new ChecksumMismatchException(file, address + checksumAt, identity.structure(),
                    stored, computed);
        }
    }

    /** Whether the checksum at the end of {@code block} matches the bytes before it. */
    public static boolean checksumMatches(byte[] block) {
        return block.length >= CHECKSUM_SIZE && storedChecksum(block)
                == JenkinsLookup3.checksum(block, 0, block.length - CHECKSUM_SIZE);
    }

    private static int storedChecksum(byte[] block) {
        int at = block.length - CHECKSUM_SIZE;
        return (block[at] & 0xff) | (block[at + 1] & 0xff) << 8 | (block[at + 2] & 0xff) << 16
                | (block[at + 3] & 0xff) << 24;
    }

    /**
     * Checks only the signature and version at the start of {@code prefix}, for blocks whose
     * length is known only after reading fields that follow them; {@link #verify} must still be
     * called on the complete block.
     */
    public static void verifyPrefix(Path file, long address, byte[] prefix, BlockIdentity identity)
            throws CorruptFileException, UnsupportedFormatException {
        byte[] signature = identity.signature();
        if (prefix.length < identity.prefixLength()) {
            throw new CorruptFileException(file, address, identity.structure(), "block size",
                    "at least " + identity.prefixLength() + " bytes", prefix.length + " bytes");
        }
        for (int i = 0; i < signature.length; i++) {
            if (prefix[i] != signature[i]) {
                throw new CorruptFileException(file, address, identity.structure(), "signature",
                        printable(signature, 0, signature.length),
                        printable(prefix, 0, signature.length));
            }
        }
        if (identity.version() != BlockIdentity.NO_VERSION) {
            int version = prefix[signature.length] & 0xff;
            if (version != identity.version()) {
                throw new UnsupportedFormatException(file, identity.structure(), address,
                        "version " + version, "version " + identity.version());
            }
        }
    }

    private static String printable(byte[] bytes, int from, int length) {
        StringBuilder text = new StringBuilder("\"");
        for (int i = from; i < from + length; i++) {
            int b = bytes[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b)
                    : "\\x" + HexFormat.of().toHexDigits((byte) b));
        }
        return text.append('"').toString();
    }

}
