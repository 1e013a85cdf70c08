package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

class MetadataValidatorTest {

    private static final Path FILE = Path.of("test.h5");
    private static final BlockIdentity HEADER = BlockIdentity.signed("fixed array header", "FAHD", 0);

    private static byte[] validBlock() {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putBytes("FAHD".getBytes()).putByte(0).putByte(0).putLong(1234L);
        return out.putChecksumFrom(0).toByteArray();
    }

    @Test
    void acceptsAnIntactBlock() throws Exception {
        MetadataValidator.verify(FILE, 100, validBlock(), HEADER);
    }

    @Test
    void reportsAFlippedBitAsChecksumMismatchAtTheChecksumField() {
        byte[] block = validBlock();
        block[7] ^= 0x10;
        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                () -> MetadataValidator.verify(FILE, 100, block, HEADER));
        assertEquals("fixed array header", e.structure());
        assertEquals(100 + block.length - 4, e.offset());
        assertTrue(e.getMessage().contains("test.h5"), e.getMessage());
    }

    @Test
    void reportsAWrongSignatureWithExpectedAndFound() {
        byte[] block = validBlock();
        block[0] = 'X';
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> MetadataValidator.verify(FILE, 100, block, HEADER));
        assertEquals("signature", e.field());
        assertEquals("\"FAHD\"", e.expected());
        assertEquals("\"XAHD\"", e.found());
    }

    @Test
    void reportsAnUnknownVersionAsUnsupported() {
        byte[] block = validBlock();
        block[4] = 7;
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> MetadataValidator.verify(FILE, 100, block, HEADER));
        assertEquals(100, e.offset());
        assertEquals("version 7", e.found());
        assertEquals(HEADER.structure(), e.structure());
        assertEquals("version " + HEADER.version(), e.supported());
    }

    @Test
    void reportsABlockTooShortToHoldItsPrefixAndChecksum() {
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> MetadataValidator.verify(FILE, 100, new byte[6], HEADER));
        assertEquals("block size", e.field());
    }

    /** Signature bytes from space to tilde are shown as text, the rest as escapes. */
    @Test
    void aSignatureIsShownAsTextFromSpaceToTildeAndEscapedOutside() {
        byte[] block = validBlock();
        block[0] = ' ';
        block[1] = '~';
        block[2] = 0x1f;
        block[3] = 0x7f;
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> MetadataValidator.verify(FILE, 100, block, HEADER));
        assertEquals("\" ~\\x1f\\x7f\"", e.found());
    }

    /** A block of only a checksum (of no bytes: lookup3's 0xdeadbeef) matches; a shorter one cannot. */
    @Test
    void aBlockOfOnlyItsChecksumMatchesAndAShorterOneDoesNot() {
        int ofNothing = JenkinsLookup3.checksum(new byte[0], 0, 0);
        assertEquals(0xdeadbeef, ofNothing);
        byte[] block = new LittleEndianWriter().putInt(ofNothing).toByteArray();
        assertTrue(MetadataValidator.checksumMatches(block));
        block[3] ^= 1;
        assertEquals(false, MetadataValidator.checksumMatches(block));
        assertEquals(false, MetadataValidator.checksumMatches(new byte[3]));
    }
}
