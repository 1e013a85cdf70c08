package org.quire.format.hdf5;

import org.quire.format.FormatException;

/**
 * A part of a file Quire does not read (an attribute, link or object of a kind it does not
 * handle), named, with the reason; everything else in the file still reads.
 *
 * @param name   the attribute's name, or the path of the link or object
 * @param reason what Quire does not read, as the format exception said it
 */
public record Unsupported(String name, String reason) {

    /** The part {@code name} and why, from {@code e} (without the name if it starts with it). */
    public static Unsupported of(String name, FormatException e) {
        String detail = e.detail();
        return new Unsupported(name, detail.startsWith(name + ": ")
                ? detail.substring(name.length() + 2) : detail);
    }
}
