package org.quire.format;

import java.nio.file.Path;

/**
 * The file is not in the format asked for at all: its signature (HDF5's 8-byte signature, SION's
 * magic "sion") is absent, so it is some other file (text, empty, another format), not a damaged
 * one. Distinct from {@link CorruptFileException}, which a file of the right format earns:
 *
 * <pre>notes.txt: not a SION file: it starts with 68 65 6c 6c ("hell"), not the magic 73 69 6f 6e ("sion")</pre>
 */
public class WrongFormatException extends FormatException {

    private final String format;
    private final String found;

    /**
     * @param format the format asked for with its article, as said aloud ("a SION", "an HDF5")
     * @param found  what the file holds instead, said as a phrase ("it is empty", "it starts with ...")
     */
    public WrongFormatException(Path file, String format, String found) {
        super(file, "not " + format + " file: " + found);
        this.format = format;
        this.found = found;
    }

    /** The format asked for, with its article ("a SION", "an HDF5"). */
    public String format() {
        return format;
    }

    /** What the file holds instead. */
    public String found() {
        return found;
    }

    /**
     * What a file that should start with {@code signature} holds instead: "it is empty" or "it
     * starts with 68 65 6c 6c ("hell")" (bytes in hex, then as text, other bytes as '.').
     *
     * @param start the file's first bytes, as many as the signature has or fewer if it is shorter
     */
    public static String startInsteadOf(byte[] start) {
        if (start.length == 0) {
            return "it is empty";
        }
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (byte b : start) {
            hex.append(hex.length() == 0 ? "" : " ").append(String.format("%02x", b & 0xff));
            text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
        }
        return "it starts with " + hex + " (\"" + text + "\")";
    }
}
