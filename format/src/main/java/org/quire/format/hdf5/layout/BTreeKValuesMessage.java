package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * B-tree 'K' values message (header message type 0x0013), specification section IV.A.2.n:
 * found only in a superblock extension, it gives the version-1 B-tree and symbol table node
 * capacities a version 2/3 superblock has no field for, when they are not libhdf5's defaults.
 *
 * <pre>
 * +-------------+-------------------------------+-------------------------+---------------------+
 * | version (0) | indexed storage internal node | group internal node K   | group leaf node K   |
 * |             | K (2)                         | (2)                     | (2)                 |
 * +-------------+-------------------------------+-------------------------+---------------------+
 * </pre>
 */
public final class BTreeKValuesMessage {

    public static final int TYPE = 0x0013;
    private static final int VERSION = 0;

    private BTreeKValuesMessage() {
    }

    public static BTreeV1Ranks decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != VERSION) {
            throw new UnsupportedFormatException(in.file(), "B-tree 'K' values message", at,
                    "version " + version, "version " + VERSION);
        }
        int chunk = positive(in, "indexed storage internal node K");
        int groupInternal = positive(in, "group internal node K");
        int groupLeaf = positive(in, "group leaf node K");
        return new BTreeV1Ranks(groupLeaf, groupInternal, chunk);
    }

    private static int positive(LittleEndianReader in, String field) throws CorruptFileException {
        long at = in.absolutePosition();
        int k = in.getUnsignedShort(field);
        if (k == 0) {
            throw in.corrupt(at, field, "1..65535", "0");
        }
        return k;
    }
}
