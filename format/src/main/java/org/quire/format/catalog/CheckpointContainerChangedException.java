package org.quire.format.catalog;

import java.nio.file.Path;

import org.quire.format.FormatException;

/** A restart's SION container is not the one its checkpoint catalogued: missing, resized or rewritten. */
public final class CheckpointContainerChangedException extends FormatException {

    CheckpointContainerChangedException(Path container, String message) {
        super(container, message);
    }
}
