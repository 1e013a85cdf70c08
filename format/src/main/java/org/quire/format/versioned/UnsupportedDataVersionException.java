package org.quire.format.versioned;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A versioned tree of a data version other than 4 (reference note §1.4): 1 to 3 hashed
 * strings by pointers or with collisions, above 4 is a later library's.
 */
public final class UnsupportedDataVersionException extends FormatException {

    private final long found;

    UnsupportedDataVersionException(Path file, long found, String why) {
        super(file, "unsupported versioned data at " + VersionDataLayout.VERSIONS_PATH + "@"
                + VersionDataLayout.DATA_VERSION + ": found data version " + found + " (" + why
                + "); supported: data version " + VersionDataLayout.SUPPORTED_DATA_VERSION);
        this.found = found;
    }

    public long found() {
        return found;
    }
}
