package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

class JenkinsLookup3Test {

    @Test
    void emptyKeyHashesToTheSeedConstant() {
        assertEquals(0xdeadbeef, JenkinsLookup3.hashLittle(new byte[0], 0, 0, 0));
    }

    /** Vectors printed by the driver in Bob Jenkins' lookup3.c. */
    @Test
    void matchesTheReferenceImplementationVectors() {
        byte[] key = "Four score and seven years ago".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x17770551, JenkinsLookup3.hashLittle(key, 0, key.length, 0));
        assertEquals(0xcd628161, JenkinsLookup3.hashLittle(key, 0, key.length, 1));
    }

    /** The first 44 bytes and the stored checksum of a superblock h5py 3.7 wrote (libver latest). */
    @Test
    void matchesTheChecksumLibhdf5StoredInASuperblock() {
        byte[] superblock = HexFormat.of().parseHex("894844460d0a1a0a03080800"
                + "0000000000000000" + "ffffffffffffffff" + "1611000000000000" + "3000000000000000");
        assertEquals(0xec4c586d, JenkinsLookup3.checksum(superblock, 0, superblock.length));
    }

    @Test
    void hashesOnlyTheGivenRange() {
        byte[] key = "xxFour score and seven years agoyy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x17770551, JenkinsLookup3.checksum(key, 2, key.length - 4));
    }
}
