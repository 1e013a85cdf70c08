package org.quire.format.hdf5.layout;

/**
 * One message of an object header as stored: its type, its flags (b0 constant, b1 shared, ...)
 * and its body bytes. {@code bodyAddress} is where the body starts in the file, or undefined for
 * a message not yet written.
 */
public record HeaderMessage(int type, int flags, byte[] body, long bodyAddress) {

    /** Message flag b0: the message will not change. */
    public static final int FLAG_CONSTANT = 0x01;
    /** Message flag b1: the body is a shared-message reference, not the message itself. */
    public static final int FLAG_SHARED = 0x02;

    public static HeaderMessage of(int type, int flags, byte[] body) {
        return new HeaderMessage(type, flags, body, Addresses.UNDEFINED);
    }

    /** Bytes this message takes in a version-2 object header chunk. */
    public int storedSize() {
        return ObjectHeaderV2.MESSAGE_HEADER_SIZE + body.length;
    }

    /** A reader over the body, for the message classes' {@code decode}. */
    public LittleEndianReader reader(java.nio.file.Path file, String structure) {
        return new LittleEndianReader(file, bodyAddress, structure, body);
    }
}
