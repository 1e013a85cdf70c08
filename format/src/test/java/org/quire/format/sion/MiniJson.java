package org.quire.format.sion;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader for the test-vector description (the module depends on the JDK alone):
 * objects become {@link Map}, arrays {@link List}, integers {@link Long} (beyond it
 * {@link BigInteger}), other numbers
 * {@link Double}, plus strings, booleans and null.
 */
public final class MiniJson {

    private final String text;
    private int position;

    private MiniJson(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        MiniJson parser = new MiniJson(text);
        Object value = parser.value();
        parser.skipWhitespace();
        if (parser.position != text.length()) {
            throw parser.error("trailing characters");
        }
        return value;
    }

    private Object value() {
        skipWhitespace();
        char c = text.charAt(position);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> object = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (text.charAt(position) == '}') {
            position++;
            return object;
        }
        while (true) {
            skipWhitespace();
            String key = string();
            skipWhitespace();
            expect(':');
            object.put(key, value());
            skipWhitespace();
            if (text.charAt(position) == '}') {
                position++;
                return object;
            }
            expect(',');
        }
    }

    private List<Object> array() {
        List<Object> array = new ArrayList<>();
        position++;
        skipWhitespace();
        if (text.charAt(position) == ']') {
            position++;
            return array;
        }
        while (true) {
            array.add(value());
            skipWhitespace();
            if (text.charAt(position) == ']') {
                position++;
                return array;
            }
            expect(',');
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = text.charAt(position++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> out.append(escaped);
            }
        }
    }

    private Object number() {
        int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
        String number = text.substring(start, position);
        if (number.isEmpty()) {
            throw error("unexpected character");
        }
        if (number.contains(".") || number.contains("e") || number.contains("E")) {
            return Double.parseDouble(number);
        }
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException beyondLong) {
            return new BigInteger(number); // an unsigned 64-bit value, say
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw error("expected " + word);
        }
        position += word.length();
        return value;
    }

    private void expect(char c) {
        if (text.charAt(position) != c) {
            throw error("expected '" + c + "'");
        }
        position++;
    }

    private void skipWhitespace() {
        while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
            position++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at character " + position);
    }
}
