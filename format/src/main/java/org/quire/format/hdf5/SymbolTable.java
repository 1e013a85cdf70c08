package org.quire.format.hdf5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.hdf5.layout.LosslessUtf8;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.SymbolTableNode;

/**
 * The members of an old-style group (libhdf5's default format, H5Gnode.c/H5Gstab.c): its
 * symbol table message points at a version-1 B-tree of node type 0, whose leaves point at
 * symbol table nodes, whose entries name (by offset in the group's local heap) the members'
 * object headers. Read whole, each block once, checking that every node is reached by one
 * pointer only, each child one level below its parent, and the names strictly ascending.
 */
final class SymbolTable {

    private final BlockFile file;
    private final BTreeV1Ranks ranks;
    private final LocalHeap heap;
    private final Set<Long> visited = new HashSet<>();
    private final List<LinkMessage> links = new ArrayList<>();

    private SymbolTable(BlockFile file, BTreeV1Ranks ranks, LocalHeap heap) {
        this.file = file;
        this.ranks = ranks;
        this.heap = heap;
    }

    /** The group's members as links, in name order (as h5py lists them). */
    static List<LinkMessage> read(BlockFile file, SymbolTableMessage message, BTreeV1Ranks ranks)
            throws IOException {
        SymbolTable table = new SymbolTable(file, ranks,
                LocalHeap.read(file, message.localHeapAddress()));
        table.visited.add(message.bTreeAddress());
        table.walk(BTreeV1Node.read(file, message.bTreeAddress(), BTreeV1Node.GROUP_KEYS,
                ranks.groupInternalNodeK()));
        return table.links;
    }

    /** Depth first; the recursion is at most 255 levels deep (the level is one byte). */
    private void walk(BTreeV1Node<Long> node) throws IOException {
        for (long child : node.children()) {
            if (!visited.add(child)) {
                throw new CorruptFileException(file.path(), child, node.level() > 0
                        ? "version 1 B-tree node" : "symbol table node", "address",
                        "a node reached by one pointer only",
                        "a second pointer from the node at " + node.address());
            }
            if (node.level() > 0) {
                BTreeV1Node<Long> next = BTreeV1Node.read(file, child, BTreeV1Node.GROUP_KEYS,
                        ranks.groupInternalNodeK());
                next.requireChildOf(node, file.path());
                walk(next);
            } else {
                addEntries(child);
            }
        }
    }

    private void addEntries(long nodeAddress) throws IOException {
        List<SymbolTableEntry> entries = SymbolTableNode.read(file, nodeAddress,
                ranks.groupLeafNodeK()).entries();
        for (int i = 0; i < entries.size(); i++) {
            SymbolTableEntry entry = entries.get(i);
            long entryAt = SymbolTableNode.entryAddress(nodeAddress, i);
            String name = heap.string(entry.linkNameOffset(), entryAt, "symbol table node",
                    "link name offset");
            String previous = links.isEmpty() ? null : links.get(links.size() - 1).name();
            if (previous != null && compareUtf8(previous, name) >= 0) {
                throw new CorruptFileException(file.path(), entryAt, "symbol table node",
                        "link name", "a name after \"" + previous + "\"", "\"" + name + "\"");
            }
            links.add(entry.cacheType() == SymbolTableEntry.CACHE_SOFT_LINK
                    ? LinkMessage.soft(name, heap.string(entry.softLinkValueOffset(),
                            entryAt + SymbolTableEntry.SCRATCH_PAD_OFFSET, "symbol table node",
                            "soft link value offset"))
                    : LinkMessage.hard(name, entry.objectHeaderAddress()));
        }
    }

    /** libhdf5 orders names with strcmp: by their bytes, unsigned. */
    private static int compareUtf8(String a, String b) {
        return Arrays.compareUnsigned(LosslessUtf8.encode(a), LosslessUtf8.encode(b));
    }
}
