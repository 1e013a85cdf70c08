package org.quire.format.hangar;

import java.util.Arrays;
import java.util.Objects;

/**
 * One pass over a record's characters, left to right, failing at the first one the grammar does
 * not allow (docs/versions.md, "Hangar HDF5_00 records"):
 * <pre>
 * record   = "00" ":" uid ( "$" [ checksum "$" ] number " " number "*"     (v0.3, v0.4)
 *                         | ":" checksum ":" number ":" number ":" ) shape   (v0.5)
 * uid      = alnum { alnum }
 * checksum = 16 * ( "0".."9" | "a".."f" )
 * number   = "0" | "1".."9" { "0".."9" }          (at most 2^63 - 1)
 * shape    = [ number { " " number } ]
 * </pre>
 * The dialect is told by the character after the UID and, after a '$', by whether a second '$'
 * comes before any ' ' or '*' (v0.4: the checksum, then checked digit by digit). Errors point at
 * the first character that cannot be accepted, left to right: the digit after a leading zero,
 * the digit that takes a number past 2^63 - 1, the ' ' or end of the record where the shape's
 * rank passes or falls short of the schema's; only an extent the schema does not admit is
 * pointed at by its first digit.
 */
final class LocatorRecordParser {

    static final int CHECKSUM_DIGITS = 16;

    private final String text;
    private final SampleSchema schema;
    private int at;

    LocatorRecordParser(String text, SampleSchema schema) {
        this.text = Objects.requireNonNull(text, "the record text");
        this.schema = schema;
    }

    static boolean isUidCharacter(int c) {
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }

    static boolean isHexDigit(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
    }

    LocatorRecord parse() throws MalformedRecordException {
        formatCode();
        expect(':', "':' after the format code");
        String uid = uid();
        if (peek() == ':') {
            at++;
            String checksum = checksum();
            expect(':', "':' after the checksum");
            long collection = number("collection number");
            expect(':', "':' after the collection number");
            long index = number("collection index");
            expect(':', "':' after the collection index");
            return new LocatorRecord(uid, checksum, collection, index, shape());
        }
        expect('$', "'$' (v0.3, v0.4) or ':' (v0.5) after the UID");
        String checksum = null;
        if (secondDollarComesFirst()) {
            checksum = checksum();
            expect('$', "'$' after the checksum");
        }
        long collection = number("collection number");
        expect(' ', checksum == null ? "' ' after the collection number (or '$' after a"
                + " 16-digit checksum)" : "' ' after the collection number");
        long index = number("collection index");
        expect('*', "'*' after the collection index");
        return new LocatorRecord(uid, checksum, collection, index, shape());
    }

    private void formatCode() throws MalformedRecordException {
        int start = at;
        while (isUidCharacter(peek())) {
            at++;
        }
        String code = text.substring(start, at);
        if (code.isEmpty()) {
            throw failure(start, "the format code " + LocatorRecord.FORMAT_CODE);
        }
        if (!code.equals(LocatorRecord.FORMAT_CODE)) {
            throw new MalformedRecordException(text, start, "format code '" + code + "'",
                    "format code " + LocatorRecord.FORMAT_CODE + " (HDF5_00)");
        }
    }

    private String uid() throws MalformedRecordException {
        int start = at;
        while (isUidCharacter(peek())) {
            at++;
        }
        if (at == start) {
            throw failure(at, "the file UID (ASCII letters and digits)");
        }
        return text.substring(start, at);
    }

    /** Whether a '$' comes before any ' ' or '*' from here: a v0.4 checksum's end. */
    private boolean secondDollarComesFirst() {
        int end = at;
        while (charAt(end) != -1 && charAt(end) != '$' && charAt(end) != ' '
                && charAt(end) != '*') {
            end++;
        }
        return charAt(end) == '$';
    }

    private String checksum() throws MalformedRecordException {
        int start = at;
        while (at - start < CHECKSUM_DIGITS) {
            if (!isHexDigit(peek())) {
                throw failure(at, "a lowercase hex digit of the 16-digit XXH64 checksum");
            }
            at++;
        }
        return text.substring(start, at);
    }

    /** An unpadded decimal number up to {@link Long#MAX_VALUE}. */
    private long number(String what) throws MalformedRecordException {
        int start = at;
        if (!isDigit(peek())) {
            throw failure(at, "a digit of the " + what);
        }
        long value = 0;
        while (isDigit(peek())) {
            if (at > start && value == 0) {
                throw new MalformedRecordException(text, at, "'" + (char) peek()
                        + "' after a leading '0'", "the " + what + " without leading zeros");
            }
            int digit = peek() - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                int end = at;
                while (isDigit(charAt(end))) {
                    end++;
                }
                throw new MalformedRecordException(text, at, "'" + (char) peek()
                        + "', making the " + what + " " + text.substring(start, end),
                        "the " + what + " at most " + Long.MAX_VALUE);
            }
            value = value * 10 + digit;
            at++;
        }
        return value;
    }

    /**
     * The shape, which ends the record: extents between single spaces, none for 0-d; each
     * checked against the schema, if any, as it is read.
     */
    private long[] shape() throws MalformedRecordException {
        long[] extents = new long[4];
        int rank = 0;
        while (at < text.length()) {
            if (schema != null && rank == schema.rank()) {
                throw failure(at, "the end of the record after " + rank + " extents, rank "
                        + schema.rank() + " of the schema shape " + schema.text());
            }
            if (rank > 0) {
                expect(' ', "' ' or the end of the record after an extent");
            }
            if (rank == extents.length) {
                extents = Arrays.copyOf(extents, rank * 2);
            }
            int extentAt = at;
            long extent = number("shape extent");
            if (schema != null && !schema.admits(rank, extent)) {
                throw new MalformedRecordException(text, extentAt, "extent " + extent
                        + " in dimension " + rank, (schema.variableShape() ? "at most " : "")
                        + schema.extent(rank) + " as in the " + schema);
            }
            extents[rank++] = extent;
        }
        if (schema != null && rank < schema.rank()) {
            throw failure(at, (rank == 0 ? "" : "' ' and ") + "extent " + rank
                    + " of a shape of rank " + schema.rank() + " (the schema shape "
                    + schema.text() + ")");
        }
        return Arrays.copyOf(extents, rank);
    }

    private void expect(char separator, String expected) throws MalformedRecordException {
        if (peek() != separator) {
            throw failure(at, expected);
        }
        at++;
    }

    private MalformedRecordException failure(int position, String expected) {
        return new MalformedRecordException(text, position, describe(position), expected);
    }

    /** The character at {@code position} as a message shows it. */
    private String describe(int position) {
        if (position >= text.length()) {
            return "the end of the record";
        }
        int c = text.codePointAt(position);
        if (c >= 0x20 && c < 0x7f) {
            return "'" + (char) c + "'";
        }
        return String.format("U+%04X (%s)", c, c < 0x80 ? "a control character" : "not ASCII");
    }

    private int peek() {
        return charAt(at);
    }

    /** The character at {@code index}, or -1 past the end. */
    private int charAt(int index) {
        return index < text.length() ? text.charAt(index) : -1;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
