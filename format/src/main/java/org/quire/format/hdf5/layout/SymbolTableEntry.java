package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Symbol table entry, specification section III.C: one member of an old-style group, in a
 * symbol table node, and the root group's entry in a version 0/1 superblock.
 *
 * <pre>
 * +-----------------------+---------------------------+----------------+--------------+
 * | link name offset (8)  | object header address (8) | cache type (4) | reserved (4) |
 * | (into the local heap) | (undefined: soft link)    | 0, 1 or 2      |              |
 * +-----------------------+---------------------------+----------------+--------------+
 * | scratch-pad (16): cache type 1: B-tree address (8), local heap address (8)       |
 * |                   cache type 2: offset of the soft link's value in the heap (4)   |
 * +-----------------------------------------------------------------------------------+
 * </pre>
 *
 * Cache type 1 caches a group's symbol table message; the message is what counts. A soft link
 * (cache type 2) has its value, the path it names, in the group's local heap.
 */
public record SymbolTableEntry(long linkNameOffset, long objectHeaderAddress, int cacheType,
                               long cachedBTreeAddress, long cachedHeapAddress,
                               long softLinkValueOffset) {

    public static final int SIZE = 2 * Addresses.SIZE_OF_OFFSETS + 8 + 16;
    public static final int OBJECT_HEADER_ADDRESS_OFFSET = Addresses.SIZE_OF_OFFSETS;
    public static final int SCRATCH_PAD_OFFSET = 2 * Addresses.SIZE_OF_OFFSETS + 8;
    public static final int CACHE_NOTHING = 0;
    public static final int CACHE_SYMBOL_TABLE = 1;
    public static final int CACHE_SOFT_LINK = 2;

    /**
     * A hard link to an object whose header caches nothing here: anything but an old-style
     * group (libhdf5 writes this for its own new-style groups too).
     */
    public static SymbolTableEntry hardLink(long nameOffset, long objectHeaderAddress) {
        return new SymbolTableEntry(nameOffset, objectHeaderAddress, CACHE_NOTHING,
                Addresses.UNDEFINED, Addresses.UNDEFINED, Addresses.UNDEFINED);
    }

    /** A hard link to an old-style group, caching its symbol table message. */
    public static SymbolTableEntry oldStyleGroup(long nameOffset, long objectHeaderAddress,
                                                 SymbolTableMessage symbolTable) {
        return new SymbolTableEntry(nameOffset, objectHeaderAddress, CACHE_SYMBOL_TABLE,
                symbolTable.bTreeAddress(), symbolTable.localHeapAddress(), Addresses.UNDEFINED);
    }

    public static SymbolTableEntry decode(LittleEndianReader in) throws CorruptFileException {
        long name = in.getLength("link name offset");
        long header = in.getAddress("object header address");
        long typeAt = in.absolutePosition();
        int cacheType = in.getInt("cache type");
        in.skip(4);
        long tree = Addresses.UNDEFINED;
        long heap = Addresses.UNDEFINED;
        long soft = Addresses.UNDEFINED;
        switch (cacheType) {
            case CACHE_NOTHING -> in.skip(16);
            case CACHE_SOFT_LINK -> {
                soft = in.getInt("scratch-pad soft link value offset") & 0xffffffffL;
                in.skip(12);
            }
            case CACHE_SYMBOL_TABLE -> {
                tree = in.getAddress("scratch-pad B-tree address");
                heap = in.getAddress("scratch-pad local heap address");
            }
            default -> throw in.corrupt(typeAt, "cache type", "0, 1 or 2",
                    Integer.toUnsignedString(cacheType));
        }
        return new SymbolTableEntry(name, header, cacheType, tree, heap, soft);
    }

    /** The 40 bytes of this entry, the scratch-pad bytes a cache type leaves unused zero. */
    public void encode(LittleEndianWriter out) {
        out.putLength(linkNameOffset).putAddress(objectHeaderAddress).putInt(cacheType).putZeros(4);
        switch (cacheType) {
            case CACHE_SYMBOL_TABLE -> out.putAddress(cachedBTreeAddress)
                    .putAddress(cachedHeapAddress);
            case CACHE_SOFT_LINK -> out.putInt((int) softLinkValueOffset).putZeros(12);
            default -> out.putZeros(16);
        }
    }
}
