package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Symbol table node, specification section III.B: a leaf of an old-style group's version-1
 * B-tree, holding up to 2 x "group leaf node K" symbol table entries ordered by name. Stored at
 * full capacity, the unused entries zero; no checksum.
 *
 * <pre>
 * +--------+---------+----------+-----------------------+-----------------------------------+
 * | "SNOD" | version | reserved | number of symbols (2) | entries: 2K x symbol table entry  |
 * |        |   (1)   |          |                       | (40 bytes each; the first used)   |
 * +--------+---------+----------+-----------------------+-----------------------------------+
 * </pre>
 *
 * A node changes as libhdf5's H5Gnode.c changes it: an entry is put at its place in name order
 * (the caller finds the place: names live in the local heap); a full node is split before, its
 * upper K entries moving to a new node; a node whose last entry is removed is dropped from the
 * B-tree whole, never merged with a neighbour.
 */
public final class SymbolTableNode {

    static final BlockIdentity IDENTITY = BlockIdentity.signed("symbol table node", "SNOD", 1);
    private static final int PREFIX_SIZE = 8;

    private final long address;
    private final int groupLeafNodeK;
    private final List<SymbolTableEntry> entries;

    private SymbolTableNode(long address, int groupLeafNodeK, List<SymbolTableEntry> entries) {
        this.address = address;
        this.groupLeafNodeK = groupLeafNodeK;
        this.entries = entries;
    }

    /** A node without entries at {@code address}, for {@code groupLeafNodeK}. */
    public static SymbolTableNode empty(long address, int groupLeafNodeK) {
        return new SymbolTableNode(address, groupLeafNodeK, new ArrayList<>());
    }

    /** Bytes of a node for {@code groupLeafNodeK}. */
    public static int size(int groupLeafNodeK) {
        return PREFIX_SIZE + 2 * groupLeafNodeK * SymbolTableEntry.SIZE;
    }

    /** Address of entry {@code i} of the node at {@code address}. */
    public static long entryAddress(long address, int i) {
        return address + PREFIX_SIZE + (long) i * SymbolTableEntry.SIZE;
    }

    /** The node at {@code address} with its entries in use. */
    public static SymbolTableNode read(BlockFile file, long address, int groupLeafNodeK)
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
        return new SymbolTableNode(address, groupLeafNodeK, entries);
    }

    public long address() {
        return address;
    }

    public int groupLeafNodeK() {
        return groupLeafNodeK;
    }

    /** The entries in use, in name order. */
    public List<SymbolTableEntry> entries() {
        return Collections.unmodifiableList(entries);
    }

    public boolean isFull() {
        return entries.size() == 2 * groupLeafNodeK;
    }

    /** Puts {@code entry} at {@code index}, the place of its name. */
    public void insert(int index, SymbolTableEntry entry) {
        if (isFull()) {
            throw new IllegalStateException("symbol table node at " + address + " is full ("
                    + entries.size() + " entries): split it first");
        }
        entries.add(index, entry);
    }

    public SymbolTableEntry remove(int index) {
        return entries.remove(index);
    }

    /**
     * Splits this full node: its upper K entries move, in order, into the empty node {@code
     * right}; K stay here.
     */
    public void splitInto(SymbolTableNode right) {
        if (!isFull() || !right.entries.isEmpty()) {
            throw new IllegalStateException("symbol table node at " + address + " holds "
                    + entries.size() + " entries, the one at " + right.address + " "
                    + right.entries.size() + ": only a full node splits, into an empty one");
        }
        List<SymbolTableEntry> upper = entries.subList(groupLeafNodeK, entries.size());
        right.entries.addAll(upper);
        upper.clear();
    }

    /** The node's bytes at its full size. */
    public byte[] encode() {
        int size = size(groupLeafNodeK);
        LittleEndianWriter out = new LittleEndianWriter(size).putBytes(IDENTITY.signature())
                .putByte(IDENTITY.version()).putByte(0).putShort(entries.size());
        for (SymbolTableEntry entry : entries) {
            entry.encode(out);
        }
        return out.putZeros(size - out.position()).toByteArray();
    }
}
