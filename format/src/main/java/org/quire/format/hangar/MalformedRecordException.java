package org.quire.format.hangar;

import org.quire.format.FormatException;

/**
 * A Hangar locator record that is not well formed, or that names a shape its schema does not
 * allow. One line naming the record, the 0-based character position, what was found there and
 * what was expected:
 *
 * <pre>HDF5_00 record "00:2HvGf9$0 x*10" at position 12: found 'x', expected a digit of the collection index</pre>
 *
 * A record is shown with characters that are not printable ASCII escaped as {@code \}{@code uXXXX};
 * the position counts characters of the record as given (UTF-16 units).
 */
public class MalformedRecordException extends FormatException {

    private final String record;
    private final int position;
    private final String found;
    private final String expected;

    MalformedRecordException(String record, int position, String found, String expected) {
        super("HDF5_00 record \"" + printable(record) + "\" at position " + position + ": found "
                + found + ", expected " + expected);
        this.record = record;
        this.position = position;
        this.found = found;
        this.expected = expected;
    }

    /** The record as given. */
    public String record() {
        return record;
    }

    /**
     * 0-based index in {@link #record()} of the first character that is wrong (for an extent
     * the schema does not admit, the extent's first digit).
     */
    public int position() {
        return position;
    }

    /** What the record holds at {@link #position()}. */
    public String found() {
        return found;
    }

    /** What the grammar (or the schema) allows there. */
    public String expected() {
        return expected;
    }

    /** The record on one line: anything but printable ASCII as a Java escape. */
    private static String printable(String record) {
        StringBuilder out = new StringBuilder(record.length());
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }
}
