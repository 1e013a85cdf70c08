package org.quire.format.catalog;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A version of a catalog file that is not a checkpoint the catalog committed: its checkpoint
 * group or one of its attributes is missing or of another type.
 */
public final class NotACheckpointException extends FormatException {

    NotACheckpointException(Path catalog, String version, String object, String expected) {
        super(catalog, "version \"" + version + "\" is not a checkpoint: " + object + " is not "
                + expected);
    }
}
