package org.quire.format.hdf5.layout;

/**
 * Group info message (header message type 0x000A), specification section IV.A.2.k.
 *
 * <pre>
 * +---------+-------+----------------------------------------------+-----------------------------+
 * | version | flags | max compact (2), min dense (2) (if flags b0) | est. entries (2), est. name |
 * |   (0)   |       |                                              | length (2) (if flags b1)    |
 * +---------+-------+----------------------------------------------+-----------------------------+
 * </pre>
 *
 * Quire writes the default (flags 0): libhdf5's thresholds of 8 compact / 6 dense links. Readers
 * need nothing from it.
 */
public final class GroupInfoMessage {

    public static final int TYPE = 0x000A;

    private GroupInfoMessage() {
    }

    public static byte[] encodeDefault() {
        return new byte[] {0, 0};
    }
}
