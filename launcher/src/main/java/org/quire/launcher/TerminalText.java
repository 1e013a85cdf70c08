package org.quire.launcher;

/**
 * Text from a file (names, reasons, messages naming them) made safe to print on one line of a
 * terminal, losslessly: a backslash as two; newline, tab and carriage return as {@code \n},
 * {@code \t}, {@code \r}; other C0 control characters and DEL as {@code \xNN}; C1 control
 * characters (U+0080 to U+009F, which some terminals obey: U+009B starts an escape sequence)
 * as a backslash, {@code u} and four hex digits; and a stored byte that is not valid UTF-8,
 * which the format library keeps as a lone surrogate U+DC80 to U+DCFF ({@code LosslessUtf8}),
 * as {@code \xNN}. So no name can end a line, forge another or drive the terminal, and two
 * names differing in any byte print differently.
 */
public final class TerminalText {

    private TerminalText() {
    }

    /** {@code text} with every character escaped as the class comment says. */
    public static String escape(String text) {
        return escape(text, true);
    }

    /**
     * {@code text} escaped as {@link #escape} does, but its backslashes left as they are: for an
     * error message, which may quote bytes with escapes of its own ({@code "\\x89HDF"}) around
     * the names it holds.
     */
    public static String escapeControls(String text) {
        return escape(text, false);
    }

    private static String escape(String text, boolean backslashes) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF) {
                out.append(String.format("\\x%02x", c & 0xff));
            } else if (c == '\\' && !backslashes) {
                out.append(c);
            } else {
                appendEscaped(c, out);
            }
        }
        return out.toString();
    }

    /** Appends {@code c}, escaped if it is a backslash or a control character. */
    public static void appendEscaped(char c, StringBuilder out) {
        switch (c) {
            case '\\' -> out.append("\\\\");
            case '\n' -> out.append("\\n");
            case '\t' -> out.append("\\t");
            case '\r' -> out.append("\\r");
            default -> {
                if (c < 0x20 || c == 0x7f) {
                    out.append(String.format("\\x%02x", (int) c));
                } else if (c >= 0x80 && c <= 0x9f) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
        }
    }
}
