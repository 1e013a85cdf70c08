package org.quire.launcher;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Pattern;

/**
 * A small streaming JSON (RFC 8259) writer for the tools' machine-readable output: objects,
 * arrays, strings, numbers, booleans and null, indented by two spaces; arrays of integers go on one line.
 * Every character outside printable ASCII is written as a {@code \\uXXXX} escape, so the output
 * is valid JSON in any encoding (file names may hold anything).
 */
public final class JsonWriter {

    /** RFC 8259's number grammar (section 6). */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private final StringBuilder out = new StringBuilder();
    /** One entry per open container: true while it has no element yet. */
    private final Deque<Boolean> empty = new ArrayDeque<>();
    private boolean afterName;

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** The name of the next member of the current object. */
    public JsonWriter name(String name) {
        beforeValue();
        string(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    public JsonWriter value(long value) {
        beforeValue();
        out.append(value);
        return this;
    }

    public JsonWriter value(boolean value) {
        beforeValue();
        out.append(value);
        return this;
    }

    /** A string, or null for {@code null}. */
    public JsonWriter value(String value) {
        beforeValue();
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        return this;
    }

    /**
     * A number already written as text, e.g. an unsigned 64-bit integer or a float's shortest
     * decimal form, which {@code long} cannot carry.
     *
     * @throws IllegalArgumentException {@code number} is not a JSON number ({@code NaN},
     *                                  {@code inf}, {@code +1}, {@code .5} are not)
     */
    public JsonWriter number(String number) {
        if (!NUMBER.matcher(number).matches()) {
            throw new IllegalArgumentException("not a JSON number: " + number);
        }
        beforeValue();
        out.append(number);
        return this;
    }

    /** An array of integers on one line. */
    public JsonWriter value(long[] values) {
        beforeValue();
        out.append('[');
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ", ").append(values[i]);
        }
        out.append(']');
        return this;
    }

    /** The finished document; every container must be closed. */
    public String toJson() {
        if (!empty.isEmpty()) {
            throw new IllegalStateException(empty.size() + " JSON containers are still open");
        }
        return out.append('\n').toString();
    }

    private JsonWriter open(char bracket) {
        beforeValue();
        out.append(bracket);
        empty.push(true);
        return this;
    }

    private JsonWriter close(char bracket) {
        boolean wasEmpty = empty.pop();
        if (!wasEmpty) {
            newLine();
        }
        out.append(bracket);
        return this;
    }

    /** A value or a member name: separate it from its predecessor and indent it. */
    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (empty.isEmpty()) {
            if (out.length() > 0) {
                throw new IllegalStateException("a JSON document holds one top-level value");
            }
            return;
        }
        if (!empty.pop()) {
            out.append(',');
        }
        empty.push(false);
        newLine();
    }

    private void newLine() {
        out.append('\n').append("  ".repeat(empty.size()));
    }

    private void string(String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
