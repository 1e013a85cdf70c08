package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Symbol table node, specification section III.B: a leaf of an old-style group's version-1
 * B-tree, holding up to 2 x "group leaf node K" symbol table entries ordered by name. Stored at
 * full capacity; no checksum.
 *
 * <pre>
 * +--------+---------+----------+-----------------------+-----------------------------------+
 * | "SNOD" | version | reserved | number of symbols (2) | entries: 2K x symbol table entry  |
 * |        |   (1)   |          |                       | (40 bytes each; the first used)   |
 * +--------+---------+----------+-----------------------+-----------------------------------+
 * </pre>
 */
public final class SymbolTableNode {

    static final BlockIdentity IDENTITY = BlockIdentity.signed("symbol table node", "SNOD", 1);
    private static final int PREFIX_SIZE = 8;

    private SymbolTableNode() {
    }

    /** Bytes of a node for {@code groupLeafNodeK}. */
    public static int size(int groupLeafNodeK) {
        return PREFIX_SIZE + 2 * groupLeafNodeK * SymbolTableEntry.SIZE;
    }

    /** Address of entry {@code i} of the node at {@code address}. */
    public static long entryAddress(long address, int i) {
        return address + PREFIX_SIZE + (long) i * SymbolTableEntry.SIZE;
    }

    /** The entries in use of the node at {@code address}. */
    public static List<SymbolTableEntry> read(BlockFile file, long address, int groupLeafNodeK)
            throws IOException {
        byte[] block = file.read(address, size(groupLeafNodeK), IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, block, IDENTITY);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), block);
        in.skip(IDENTITY.prefixLength() + 1);
        int count = in.getCount(2, 2 * groupLeafNodeK, "number of symbols");
        List<SymbolTableEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(SymbolTableEntry.decode(in));
        }
        file.countChecked(IDENTITY.structure());
        return entries;
    }
}
