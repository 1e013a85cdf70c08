package org.quire.format.versioned;

import java.io.IOException;
import java.nio.file.Path;
import java.util.NoSuchElementException;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5Object;

/**
 * Reads and writes the bookkeeping attributes of §1.2 with the HDF5 types versioned-hdf5
 * requires (variable-length UTF-8 strings, int64, h5py's bool enum); one of another type, or
 * missing, is a {@link DamagedVersionDataException} naming {@code object@attribute}.
 */
final class VersionAttributes {

    private VersionAttributes() {
    }

    /** A scalar variable-length string attribute (h5py's {@code str}). */
    static String string(Path file, Hdf5Object object, String where, String name)
            throws IOException {
        Attribute attribute = require(file, object, where, name);
        if (!(attribute.type() instanceof Datatype.VariableLengthStringType)
                || attribute.elementCount() != 1) {
            throw new DamagedVersionDataException(file, where + "@" + name,
                    "a variable-length string (h5py's str)", describe(attribute));
        }
        return attribute.string();
    }

    /** A scalar (or one-element) integer attribute. */
    static long scalarLong(Path file, Hdf5Object object, String where, String name)
            throws IOException {
        Attribute attribute = require(file, object, where, name);
        if (!(attribute.type() instanceof Datatype.IntegerType) || attribute.elementCount() != 1) {
            throw new DamagedVersionDataException(file, where + "@" + name, "one integer",
                    describe(attribute));
        }
        return attribute.longs()[0];
    }

    /** An integer array attribute of {@code length} elements (the {@code chunks} shape). */
    static long[] longs(Path file, Hdf5Object object, String where, String name, int length)
            throws IOException {
        Attribute attribute = require(file, object, where, name);
        if (!(attribute.type() instanceof Datatype.IntegerType)
                || attribute.elementCount() != length) {
            throw new DamagedVersionDataException(file, where + "@" + name,
                    length + " integers", describe(attribute));
        }
        return attribute.longs();
    }

    /** h5py's bool: an enumeration of int8 {FALSE = 0, TRUE = 1}. */
    static boolean bool(Path file, Hdf5Object object, String where, String name)
            throws IOException {
        Attribute attribute = require(file, object, where, name);
        if (!(attribute.type() instanceof Datatype.EnumType) || attribute.elementCount() != 1) {
            throw new DamagedVersionDataException(file, where + "@" + name,
                    "h5py's bool (an enumeration of int8)", describe(attribute));
        }
        return attribute.data()[0] != 0;
    }

    /** h5py's scalar {@code True}/{@code False}. */
    static Attribute scalarBool(String name, boolean value) {
        return new Attribute(name, Datatype.EnumType.BOOLEAN, new long[0],
                new byte[] {(byte) (value ? 1 : 0)});
    }

    /**
     * Sets {@code attribute}, or writes its value over the one of an attribute of the same
     * name, type and shape in place ({@link Hdf5Object#rewriteAttribute}: only the value's
     * bytes change, a string goes into a new global heap object). In place is what a version-1
     * object header of libhdf5's default format allows (versioned-hdf5's {@code
     * current_version}, {@code largest_index}, {@code prev_version} in files h5py wrote with
     * its defaults), and one step: no moment without the attribute.
     *
     * @throws IllegalArgumentException the existing attribute has another type or shape
     *                                   (nothing changed)
     */
    static void replace(Hdf5Object object, Attribute attribute) throws IOException {
        if (object.attributeNames().contains(attribute.name())) {
            object.rewriteAttribute(attribute);
        } else {
            object.setAttribute(attribute);
        }
    }

    private static Attribute require(Path file, Hdf5Object object, String where, String name)
            throws IOException {
        try {
            return object.attribute(name);
        } catch (NoSuchElementException e) {
            throw new DamagedVersionDataException(file, where + "@" + name,
                    "the attribute versioned-hdf5 writes there", "none");
        }
    }

    private static String describe(Attribute attribute) {
        return attribute.type() + " of " + attribute.elementCount() + " elements";
    }
}
