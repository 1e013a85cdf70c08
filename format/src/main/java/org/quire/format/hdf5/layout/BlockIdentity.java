package org.quire.format.hdf5.layout;

import java.nio.charset.StandardCharsets;

/**
 * What identifies one kind of checksummed metadata block: its name in the specification, its
 * signature (absent for data block pages), and its version byte, which directly follows the
 * signature (absent, {@link #NO_VERSION}, for continuation blocks and pages).
 */
public record BlockIdentity(String structure, byte[] signature, int version) {

    public static final int NO_VERSION = -1;

    /** A block that starts with a 4-character ASCII signature and a version byte. */
    public static BlockIdentity signed(String structure, String signature, int version) {
        return new BlockIdentity(structure, signature.getBytes(StandardCharsets.US_ASCII), version);
    }

    /** A block with neither signature nor version, only a trailing checksum. */
    public static BlockIdentity unsigned(String structure) {
        return new BlockIdentity(structure, new byte[0], NO_VERSION);
    }

    /** Bytes taken by the signature and the version byte, if any. */
    public int prefixLength() {
        return signature.length + (version == NO_VERSION ? 0 : 1);
    }
}
