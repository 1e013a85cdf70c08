package org.quire.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Text from a file printed on one line of a terminal, losslessly ({@link TerminalText}). */
class TerminalTextTest {

    @Test
    void controlCharactersBackslashesAndBytesThatAreNotUtf8AreEscaped() {
        assertEquals("a\\nb\\rc\\td", TerminalText.escape("a\nb\rc\td"));
        assertEquals("\\x00\\x1b[2J\\x1f\\x7f", TerminalText.escape("\u0000\u001b[2J\u001f\u007f"));
        assertEquals("\\u0080\\u009b31m\\u009f", TerminalText.escape("\u0080\u009b31m\u009f"));
        assertEquals("back\\\\slash \"quoted\"", TerminalText.escape("back\\slash \"quoted\""));
        // LosslessUtf8 keeps a byte that is not UTF-8 as U+DC00 + byte.
        assertEquals("bad\\xff\\x80", TerminalText.escape("bad\udcff\udc80"));
    }

    /** An error message may quote bytes with escapes of its own: those backslashes stay. */
    @Test
    void errorMessagesKeepTheirBackslashes() {
        assertEquals("expected \"\\x89HDF\", found /a\\nb\\nc\\x1b",
                TerminalText.escapeControls("expected \"\\x89HDF\", found /a\\nb\nc\u001b"));
    }

    @Test
    void printableTextIsLeftAsItIs() {
        String text = " ~\u00a0caf\u00e9 \u03b2 \ud83d\ude00";
        assertEquals(text, TerminalText.escape(text));
    }
}
