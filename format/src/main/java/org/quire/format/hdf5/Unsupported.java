package org.quire.format.hdf5;

import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;

/**
 * A part of a file Quire does not read (an attribute, link or object of a kind it does not
 * handle), named, with the reason; everything else in the file still reads.
 *
 * @param name   the attribute's name, or the path of the link or object
 * @param reason what Quire does not read, as the format exception said it (without the name
 *               and without the word "unsupported": a line names the part once)
 */
public record Unsupported(String name, String reason) {

    private static final String WORD = "unsupported ";

    /** The part {@code name} and why, from {@code e} (without the name if it starts with it). */
    public static Unsupported of(String name, FormatException e) {
        String reason = e.detail();
        if (e instanceof UnsupportedFormatException) {
            reason = reason.substring(WORD.length());
        }
        return new Unsupported(name, reason.startsWith(name + ": ")
                ? reason.substring(name.length() + 2) : reason);
    }
}
