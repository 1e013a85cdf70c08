package org.quire.format;

import java.nio.file.Path;

/**
 * A well-formed file uses a version or feature of its format that this implementation does not
 * read or write. The message names the feature, the version found and the supported range.
 */
public class UnsupportedFormatException extends FormatException {

    public UnsupportedFormatException(Path file, String message) {
        super(file, message);
    }
}
