package org.quire.launcher.h5;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

import org.quire.format.hdf5.Datatype;
import org.quire.launcher.TerminalText;

/**
 * One element as text, exactly: integers of any size in decimal (unsigned ones as unsigned),
 * enumeration members by name (bools as FALSE and TRUE, as h5dump prints them; a value no
 * member has as its number), floats as the shortest text that reads back as the same number
 * ({@link ShortestFloat}), strings quoted with escapes ({@link #string}), compounds as
 * {@code {name=value, ...}}, arrays as {@code [value, ...]} (row-major, flattened).
 */
final class ValueFormat {

    private ValueFormat() {
    }

    /**
     * The element of {@code type} at {@code offset} of {@code bytes}; for a variable-length
     * string type the caller formats the string's bytes with {@link #string}.
     */
    static String format(Datatype type, byte[] bytes, int offset) {
        if (type instanceof Datatype.IntegerType integer) {
            long value = integer.decode(bytes, offset);
            return integer.signed() ? Long.toString(value) : Long.toUnsignedString(value);
        }
        if (type instanceof Datatype.EnumType enumeration) {
            long value = enumeration.base().decode(bytes, offset);
            String name = enumeration.nameOf(value);
            return name != null ? name(name) : enumeration.base().signed() ? Long.toString(value)
                    : Long.toUnsignedString(value);
        }
        if (type instanceof Datatype.FloatType real) {
            ByteBuffer in = ByteBuffer.wrap(bytes).order(real.byteOrder());
            return real.size() == 4 ? ShortestFloat.format(in.getFloat(offset))
                    : ShortestFloat.format(in.getDouble(offset));
        }
        if (type instanceof Datatype.StringType string) {
            return string(string.decodeBytes(bytes, offset), string.utf8());
        }
        if (type instanceof Datatype.VariableLengthStringType) {
            throw new IllegalArgumentException("variable-length strings are formatted from their"
                    + " bytes, not from their global heap IDs");
        }
        if (type instanceof Datatype.ArrayType array) {
            StringJoiner elements = new StringJoiner(", ", "[", "]");
            int size = array.base().size();
            for (int at = 0; at < array.size(); at += size) {
                elements.add(format(array.base(), bytes, offset + at));
            }
            return elements.toString();
        }
        StringJoiner members = new StringJoiner(", ", "{", "}");
        for (Datatype.Member member : ((Datatype.CompoundType) type).members()) {
            members.add(name(member.name()) + "=" + format(member.type(), bytes,
                    offset + member.offset()));
        }
        return members.toString();
    }

    /**
     * A string's bytes in double quotes: UTF-8 text as itself (when {@code utf8}), ASCII as
     * itself; quotes, backslashes and control characters (an embedded NUL as {@code \x00})
     * escaped, and every byte that is not part of valid text (any byte of 0x80 or more in an
     * ASCII string, malformed UTF-8) as {@code \xNN}: nothing is lost or replaced.
     */
    static String string(byte[] bytes, boolean utf8) {
        StringBuilder out = new StringBuilder(bytes.length + 2).append('"');
        int i = 0;
        while (i < bytes.length) {
            int length = utf8 ? utf8Length(bytes, i) : (bytes[i] >= 0 ? 1 : 0);
            if (length == 0) {
                out.append(String.format("\\x%02x", bytes[i] & 0xff));
                i++;
                continue;
            }
            String text = new String(bytes, i, length, StandardCharsets.UTF_8);
            for (int c = 0; c < text.length(); c++) {
                escape(text.charAt(c), out);
            }
            i += length;
        }
        return out.append('"').toString();
    }

    /** Bytes of the valid UTF-8 sequence at {@code i}, or 0 if there is none. */
    private static int utf8Length(byte[] bytes, int i) {
        int lead = bytes[i] & 0xff;
        int length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2
                : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (length == 0 || i + length > bytes.length) {
            return 0;
        }
        if (length == 1) {
            return 1;
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, i, length));
            return length;
        } catch (CharacterCodingException e) {
            return 0;
        }
    }

    /** {@code text} in double quotes; quotes, backslashes and control characters escaped. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            escape(text.charAt(i), out);
        }
        return out.append('"').toString();
    }

    /**
     * A name, a path or a text naming them (an unsupported part's reason) as printed, unquoted:
     * {@link TerminalText#escape}, the escapes of strings for backslashes and control
     * characters, and each stored byte that is not valid UTF-8 as {@code \xNN}.
     */
    static String name(String text) {
        return TerminalText.escape(text);
    }

    private static void escape(char c, StringBuilder out) {
        if (c == '"') {
            out.append("\\\"");
        } else {
            TerminalText.appendEscaped(c, out);
        }
    }
}
