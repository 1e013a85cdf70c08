package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Object header continuation message (header message type 0x0010), specification section
 * IV.A.2.q: where the next chunk of an object header is.
 *
 * <pre>
 * +-------------------+------------------+
 * | offset (address)  | length (length)  |
 * +-------------------+------------------+
 * </pre>
 *
 * The length counts the whole continuation block, signature and checksum included.
 */
public record ContinuationMessage(long address, long length) {

    public static final int TYPE = 0x0010;
    public static final int SIZE = Addresses.SIZE_OF_OFFSETS + Addresses.SIZE_OF_LENGTHS;

    public byte[] encode() {
        return new LittleEndianWriter(SIZE).putAddress(address).putLength(length).toByteArray();
    }

    public static ContinuationMessage decode(LittleEndianReader in) throws CorruptFileException {
        return new ContinuationMessage(in.getAddress("continuation offset"),
                in.getLength("continuation length"));
    }
}
