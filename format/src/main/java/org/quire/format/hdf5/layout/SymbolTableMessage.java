package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * Symbol table message (header message type 0x0011), specification section IV.A.2.r: an
 * old-style group's members are in the version-1 B-tree (type 0) at {@code bTreeAddress}, their
 * names in the local heap at {@code localHeapAddress}.
 *
 * <pre>
 * +--------------------------+------------------------------+
 * | v1 B-tree address (8)    | local heap address (8)       |
 * +--------------------------+------------------------------+
 * </pre>
 */
public record SymbolTableMessage(long bTreeAddress, long localHeapAddress) {

    public static final int TYPE = 0x0011;

    public static SymbolTableMessage decode(LittleEndianReader in) throws CorruptFileException {
        return new SymbolTableMessage(in.getAddress("v1 B-tree address"),
                in.getAddress("local heap address"));
    }
}
