package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * The fields every fixed and extensible array block repeats after its signature and version:
 * the client ID, which must match the header's, and the address of the header it belongs to.
 *
 * <pre>
 * +-----------+--------------------+
 * | client ID | header address (O) |
 * +-----------+--------------------+
 * </pre>
 */
public final class ArrayBlockPrefix {

    public static final int SIZE = 1 + Addresses.SIZE_OF_OFFSETS;

    private ArrayBlockPrefix() {
    }

    public static void encode(LittleEndianWriter out, ChunkRecordFormat format, long headerAddress) {
        out.putByte(format.clientId()).putAddress(headerAddress);
    }

    public static void check(LittleEndianReader in, ChunkRecordFormat format, long headerAddress)
            throws CorruptFileException {
        long at = in.absolutePosition();
        int client = in.getUnsignedByte("client ID");
        if (client != format.clientId()) {
            throw in.corrupt(at, "client ID", "the header's " + format.clientId(),
                    Integer.toString(client));
        }
        long owner = in.getAddress("header address");
        if (owner != headerAddress) {
            throw in.corrupt(at + 1, "header address", Long.toString(headerAddress),
                    Long.toUnsignedString(owner));
        }
    }
}
