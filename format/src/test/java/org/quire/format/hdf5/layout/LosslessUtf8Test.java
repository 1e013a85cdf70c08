package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * Stored names decoded without loss: valid UTF-8 as itself, every other byte as U+DC00 + byte,
 * and encoded back to the same bytes. Each lead byte range of UTF-8 (RFC 3629, section 4) is
 * checked at both ends, inside a name that also holds an invalid byte, so the byte-by-byte
 * decoder is the one that runs.
 */
class LosslessUtf8Test {

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    /** The name {@code hex} decodes to, and the check that it encodes back to {@code hex}. */
    private static String roundTrip(String hex) {
        String name = LosslessUtf8.decode(hex(hex));
        assertEquals(hex, HexFormat.of().formatHex(LosslessUtf8.encode(name)), name);
        return name;
    }

    @Test
    void validUtf8DecodesAsItself() {
        assertEquals("temp\u00e9rature", roundTrip("74656d70c3a9726174757265"));
        assertEquals("", roundTrip(""));
    }

    @Test
    void eachLeadByteRangeDecodesAtBothEndsBesideAnInvalidByte() {
        // ff is never valid UTF-8; what follows it is decoded sequence by sequence.
        assertEquals("\udcff\u007f", roundTrip("ff7f"));
        assertEquals("\udcff\u0080", roundTrip("ffc280"));
        assertEquals("\udcff\u07ff", roundTrip("ffdfbf"));
        assertEquals("\udcff\u0800", roundTrip("ffe0a080"));
        assertEquals("\udcff\uffff", roundTrip("ffefbfbf"));
        assertEquals("\udcff\ud800\udc00", roundTrip("fff0908080"));
        assertEquals("\udcff\udbff\udfff", roundTrip("fff48fbfbf"));
    }

    @Test
    void bytesThatStartNoSequenceAreEscapedOneByOne() {
        // 80: a continuation byte alone; c0 and c1 would be overlong; f5 is beyond U+10FFFF.
        assertEquals("a\udc80b", roundTrip("618062"));
        assertEquals("\udcc1\udcbf", roundTrip("c1bf"));
        assertEquals("\udcc0\udc80", roundTrip("c080"));
        assertEquals("\udcf5\udc80\udc80\udc80", roundTrip("f5808080"));
        // A valid lead byte followed by a byte that is no continuation: only the lead escaped.
        assertEquals("\udce0A\udc80", roundTrip("e04180"));
    }

    @Test
    void aSequenceCutByTheEndOfTheNameIsEscapedAndOneEndingExactlyThereIsNot() {
        assertEquals("\udcff\u00e9", roundTrip("ffc3a9"));
        assertEquals("\udcff\udcc3", roundTrip("ffc3"));
        assertEquals("\udcff\udce2\udc82", roundTrip("ffe282"));
    }

    @Test
    void decodesOnlyTheBytesAtTheOffsetAndLengthGiven() {
        byte[] stored = hex("41ffc3a942");
        // The sequence c3 a9 ends exactly at offset + length; the byte behind it is not read.
        assertEquals("\udcff\u00e9", LosslessUtf8.decode(stored, 1, 3));
        // Cut one byte earlier, c3 is escaped although a9 follows in the array.
        assertEquals("\udcff\udcc3", LosslessUtf8.decode(stored, 1, 2));
        assertEquals("\u00e9B", LosslessUtf8.decode(stored, 2, 3));
    }

    @Test
    void encodesEscapesAtEitherEndAndBetweenText() {
        assertArrayEquals(hex("ff"), LosslessUtf8.encode("\udcff"));
        assertArrayEquals(hex("80c3a9"), LosslessUtf8.encode("\udc80\u00e9"));
        assertArrayEquals(hex("c3a980"), LosslessUtf8.encode("\u00e9\udc80"));
        assertArrayEquals(hex("61fe62fd63"), LosslessUtf8.encode("a\udcfeb\udcfdc"));
        assertArrayEquals(hex("74c3a9"), LosslessUtf8.encode("t\u00e9"));
    }

    @Test
    void onlyTheSurrogatesForBytes80ToFfAreEscapes() {
        assertFalse(LosslessUtf8.isEscape('\udc7f'));
        assertTrue(LosslessUtf8.isEscape('\udc80'));
        assertTrue(LosslessUtf8.isEscape('\udcff'));
        assertFalse(LosslessUtf8.isEscape('\udd00'));
        assertFalse(LosslessUtf8.isEscape('a'));
    }
}
