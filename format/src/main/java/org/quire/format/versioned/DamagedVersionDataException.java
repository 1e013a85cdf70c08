package org.quire.format.versioned;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A versioned tree that is not what versioned-hdf5 writes: a missing object, an attribute of
 * the wrong type, a hash table row or mapping pointing outside raw_data, a stored chunk whose
 * digest is not its hash table's. One line: the file, the object, what was expected and found.
 */
public final class DamagedVersionDataException extends FormatException {

    private final String object;

    DamagedVersionDataException(Path file, String object, String expected, String found) {
        super(file, "damaged versioned data at " + object + ": expected " + expected
                + ", found " + found);
        this.object = object;
    }

    /** The path of the object (or {@code path@attribute}) found damaged. */
    public String object() {
        return object;
    }
}
