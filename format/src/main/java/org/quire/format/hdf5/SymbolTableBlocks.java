package org.quire.format.hdf5;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.CacheEntry;
import org.quire.format.hdf5.cache.EntryLoader;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LocalHeap;
import org.quire.format.hdf5.layout.SymbolTableNode;

/**
 * The local heap and symbol table nodes one change of an old-style group reads and writes, each
 * block an entry of the file's {@link MetadataCache} (so the flush journals it with the rest),
 * protected from its first use until {@link #close}. A heap is two entries, its 32-byte header
 * and its data segment, each holding its on-disk image (they are read and reloaded apart, so
 * neither holds the other's state); the change works on one {@link LocalHeap} decoded from both
 * and puts its images back with {@link #heapChanged}. A segment that moved (grew) is a new entry
 * at its new address; the header is written after it. A node that names heap strings is
 * written after the heap.
 */
final class SymbolTableBlocks implements AutoCloseable {

    private final BlockFile file;
    private final MetadataCache cache;
    private final int groupLeafNodeK;
    private final Map<Long, CacheEntry> held = new LinkedHashMap<>();
    private final Map<Long, HeapEntries> heaps = new LinkedHashMap<>();

    /** A heap in this change: the model and the entries of its header and segment. */
    private record HeapEntries(LocalHeap heap, BlockEntry<byte[]> header, BlockEntry<byte[]> data) {
    }

    SymbolTableBlocks(BlockFile file, MetadataCache cache, int groupLeafNodeK) {
        this.file = file;
        this.cache = cache;
        this.groupLeafNodeK = groupLeafNodeK;
    }

    BlockFile file() {
        return file;
    }

    MetadataCache cache() {
        return cache;
    }

    /** The heap at {@code address} as this change sees it (read once per change). */
    LocalHeap heap(long address) throws IOException {
        HeapEntries known = heaps.get(address);
        if (known != null) {
            return known.heap;
        }
        BlockEntry<byte[]> header = hold(address, byte[].class, "local heap", (at, storage) ->
                image(at, LocalHeap.readHeader(file, at)));
        byte[] headerImage = header.value();
        BlockEntry<byte[]> data = hold(LocalHeap.dataAddress(headerImage), byte[].class,
                "local heap data segment", (at, storage) -> image(at, file.read(at,
                        LocalHeap.dataSize(headerImage), "local heap data segment")));
        if (data.imageSize() != LocalHeap.dataSize(headerImage)) {
            throw new CorruptFileException(file.path(), address, "local heap",
                    "data segment size", data.imageSize() + " (the block the cache holds at "
                            + data.address() + ")",
                    Integer.toString(LocalHeap.dataSize(headerImage)));
        }
        LocalHeap heap = LocalHeap.decode(file, address, headerImage, data.value());
        heaps.put(address, new HeapEntries(heap, header, data));
        return heap;
    }

    /**
     * Puts the images of {@code heap} (from {@link #heap}) into its entries and marks them
     * dirty; a segment at a new address becomes a new entry, the header depending on it.
     */
    void heapChanged(LocalHeap heap) throws IOException {
        HeapEntries entries = heaps.get(heap.address());
        byte[] header = heap.headerImage();
        System.arraycopy(header, 0, entries.header.value(), 0, header.length);
        cache.markDirty(entries.header);
        BlockEntry<byte[]> data = entries.data;
        if (heap.dataAddress() != data.address()) {
            data = cache.insertProtected(image(heap.dataAddress(), heap.dataImage()));
            held.put(data.address(), data);
            heaps.put(heap.address(), new HeapEntries(heap, entries.header, data));
            cache.createFlushDependency(entries.header.address(), data.address());
        } else {
            byte[] image = heap.dataImage();
            System.arraycopy(image, 0, data.value(), 0, image.length);
            cache.markDirty(data);
        }
    }

    /** The symbol table node at {@code address}, protected until {@link #close}. */
    @SuppressWarnings("unchecked")
    SymbolTableNode node(long address) throws IOException {
        return hold(address, SymbolTableNode.class, "symbol table node", (at, storage) ->
                node(SymbolTableNode.read(file, at, groupLeafNodeK))).value();
    }

    /** A new, empty symbol table node at the end of the file. */
    SymbolTableNode newNode() throws IOException {
        SymbolTableNode node = SymbolTableNode.empty(
                file.allocate(SymbolTableNode.size(groupLeafNodeK)), groupLeafNodeK);
        held.put(node.address(), cache.insertProtected(node(node)));
        return node;
    }

    /**
     * Marks {@code node} (from {@link #node} or {@link #newNode}) dirty: written after the
     * heap {@code heapAddress} whose strings it names.
     */
    void nodeChanged(SymbolTableNode node, long heapAddress) {
        CacheEntry entry = held.get(node.address());
        cache.markDirty(entry);
        cache.createFlushDependency(node.address(), heapAddress);
    }

    private static BlockEntry<SymbolTableNode> node(SymbolTableNode node) {
        return BlockEntry.metadata(node.address(), SymbolTableNode.size(node.groupLeafNodeK()),
                node, SymbolTableNode::encode);
    }

    private static BlockEntry<byte[]> image(long address, byte[] image) {
        return BlockEntry.metadata(address, image.length, image, bytes -> bytes);
    }

    /** The entry at {@code address}, which must hold a {@code type}; protected once per change. */
    @SuppressWarnings("unchecked")
    private <T> BlockEntry<T> hold(long address, Class<T> type, String structure,
                                   EntryLoader<BlockEntry<T>> loader)
            throws IOException {
        CacheEntry entry = held.get(address);
        if (entry == null) {
            entry = cache.protect(address, CacheEntry.class, loader::load);
            held.put(address, entry);
        }
        if (entry instanceof BlockEntry<?> block && type.isInstance(block.value())) {
            return (BlockEntry<T>) block;
        }
        throw new CorruptFileException(file.path(), address, structure, "address",
                "the address of a " + structure, "the address of another block: " + entry);
    }

    /** Ends the protection of every block this change used. */
    @Override
    public void close() throws IOException {
        for (CacheEntry entry : held.values()) {
            cache.unprotect(entry);
        }
        held.clear();
        heaps.clear();
    }
}
