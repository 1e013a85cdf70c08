package org.quire.launcher.h5;

import java.nio.ByteBuffer;
import java.util.StringJoiner;

import org.quire.format.hdf5.Datatype;

/**
 * One element as text, exactly: integers in decimal (unsigned ones as unsigned), floats as the
 * shortest text that reads back as the same number ({@link ShortestFloat}), strings quoted with
 * escapes, compounds as {@code {name=value, ...}}.
 */
final class ValueFormat {

    private ValueFormat() {
    }

    /** The element of {@code type} at {@code offset} of {@code bytes}. */
    static String format(Datatype type, byte[] bytes, int offset) {
        if (type instanceof Datatype.IntegerType integer) {
            ByteBuffer in = ByteBuffer.wrap(bytes).order(integer.byteOrder());
            long value = switch (integer.size()) {
                case 1 -> integer.signed() ? in.get(offset) : in.get(offset) & 0xffL;
                case 2 -> integer.signed() ? in.getShort(offset) : in.getShort(offset) & 0xffffL;
                case 4 -> integer.signed() ? in.getInt(offset) : in.getInt(offset) & 0xffffffffL;
                default -> in.getLong(offset);
            };
            return integer.signed() ? Long.toString(value) : Long.toUnsignedString(value);
        }
        if (type instanceof Datatype.FloatType real) {
            ByteBuffer in = ByteBuffer.wrap(bytes).order(real.byteOrder());
            return real.size() == 4 ? ShortestFloat.format(in.getFloat(offset))
                    : ShortestFloat.format(in.getDouble(offset));
        }
        if (type instanceof Datatype.StringType string) {
            return quoted(string.decode(bytes, offset));
        }
        StringJoiner members = new StringJoiner(", ", "{", "}");
        for (Datatype.Member member : ((Datatype.CompoundType) type).members()) {
            members.add(member.name() + "=" + format(member.type(), bytes,
                    offset + member.offset()));
        }
        return members.toString();
    }

    /** {@code text} in double quotes; quotes, backslashes and control characters escaped. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
