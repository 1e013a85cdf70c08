package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * The body of a header message stored elsewhere (message flag b1, "shared"), specification
 * section IV.A.2 ("Shared Message"): here, a datatype committed to the file as a named
 * datatype, whose object header holds the datatype message itself.
 *
 * <pre>
 * version 1: | version (1) | type (1) | reserved (6) | object header address (8) |
 * version 2: | version (2) | type (1) | object header address (8) |
 * version 3: | version (3) | type (1: in the shared message heap, 2: in an object header) |
 *            | object header address (8), or a shared message heap ID (8) for type 1 |
 * </pre>
 * libhdf5 1.10 writes version 2 by default and version 3 with libver "latest".
 */
public final class SharedMessage {

    private static final int VERSION_1_RESERVED = 6;
    private static final int IN_SHARED_MESSAGE_HEAP = 1;

    private SharedMessage() {
    }

    /** The address of the object header the shared message in {@code in} lives in. */
    public static long objectHeaderAddress(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("shared message version");
        int type = in.getUnsignedByte("shared message type");
        switch (version) {
            case 1 -> in.skip(VERSION_1_RESERVED);
            case 2 -> { }
            case 3 -> {
                if (type == IN_SHARED_MESSAGE_HEAP) {
                    throw new UnsupportedFormatException(in.file(), "shared message", at,
                            "type " + type + " (in the shared object header message heap)",
                            "messages shared in an object header");
                }
            }
            default -> throw new UnsupportedFormatException(in.file(), "shared message", at,
                    "version " + version, "versions 1 to 3");
        }
        return in.getAddress("object header address");
    }
}
