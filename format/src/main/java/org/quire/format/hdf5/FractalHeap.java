package org.quire.format.hdf5;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2HugeObjectRecord;
import org.quire.format.hdf5.layout.BTreeV2Reader;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BTreeV2Walk;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.FractalHeapDirectBlock;
import org.quire.format.hdf5.layout.FractalHeapDoublingTable;
import org.quire.format.hdf5.layout.FractalHeapHeader;
import org.quire.format.hdf5.layout.FractalHeapId;
import org.quire.format.hdf5.layout.FractalHeapIndirectBlock;
import org.quire.format.hdf5.layout.LittleEndianReader;

/**
 * A fractal heap read from a file: the objects its heap IDs name. Managed objects are found by
 * walking from the root block down the doubling tables to the direct block holding their
 * offset; each level has fewer rows than the one above, so the walk ends. Huge objects are
 * found through the heap's huge-object B-tree, tiny ones are in their IDs. A few recently used
 * direct and indirect blocks are kept, verified, in memory.
 */
final class FractalHeap {

    /** Blocks of each kind kept in memory (direct blocks: at most 64 KiB as libhdf5 writes). */
    private static final int CACHED_BLOCKS = 8;

    private final BlockFile file;
    private final long address;
    private final FractalHeapHeader header;
    private final FractalHeapDoublingTable table;
    private final Map<Long, FractalHeapDirectBlock> directBlocks = recentlyUsed();
    private final Map<Long, FractalHeapIndirectBlock> indirectBlocks = recentlyUsed();
    private BTreeV2Reader<BTreeV2HugeObjectRecord> hugeObjects;
    /** Huge objects by key, once {@link #verifyHugeObjectIndex} has read them all; or null. */
    private Map<Long, BTreeV2HugeObjectRecord> verifiedHugeObjects;

    /** One block of the heap, as {@link #forEachBlock} reports it. */
    interface BlockVisitor {
        /** @param direct true for a direct block, false for an indirect one */
        void visit(long address, boolean direct, long blockOffset, long size) throws IOException;
    }

    private FractalHeap(BlockFile file, long address, FractalHeapHeader header) {
        this.file = file;
        this.address = address;
        this.header = header;
        this.table = header.table();
    }

    /** A map keeping its {@link #CACHED_BLOCKS} most recently used entries. */
    private static <V> Map<Long, V> recentlyUsed() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, V> eldest) {
                return size() > CACHED_BLOCKS;
            }
        };
    }

    static FractalHeap open(BlockFile file, long address) throws IOException {
        return new FractalHeap(file, address, FractalHeapHeader.read(file, address));
    }

    long address() {
        return address;
    }

    FractalHeapHeader header() {
        return header;
    }

    /** The bytes of the object {@code heapId} names. */
    byte[] read(byte[] heapId) throws IOException {
        FractalHeapId id = decode(heapId);
        if (id instanceof FractalHeapId.Tiny tiny) {
            return tiny.bytes();
        }
        if (id instanceof FractalHeapId.HugeDirect huge) {
            return readHuge(huge.address(), huge.length());
        }
        if (id instanceof FractalHeapId.HugeByKey huge) {
            return readHuge(huge.key());
        }
        FractalHeapId.Managed managed = (FractalHeapId.Managed) id;
        return readManaged(managed.offset(), managed.length());
    }

    /** Where in the heap's address space the object {@code heapId} names is; -1 if not managed. */
    long managedOffset(byte[] heapId) throws IOException {
        return decode(heapId) instanceof FractalHeapId.Managed managed ? managed.offset() : -1;
    }

    private FractalHeapId decode(byte[] heapId) throws IOException {
        if (heapId.length != header.heapIdLength()) {
            throw corrupt("heap ID length", header.heapIdLength() + " (the header's)",
                    Integer.toString(heapId.length));
        }
        return FractalHeapId.decode(new LittleEndianReader(file.path(), address,
                "fractal heap ID", heapId), header);
    }

    private byte[] readManaged(long offset, long length) throws IOException {
        if (length < 1 || length > header.maxManagedObjectSize()) {
            throw corrupt("managed object length", "1.." + header.maxManagedObjectSize(),
                    Long.toUnsignedString(length));
        }
        FractalHeapDirectBlock block = directBlockHolding(offset);
        long within = offset - block.blockOffset();
        int prefix = FractalHeapDirectBlock.prefixSize(header);
        if (within < prefix || within > block.bytes().length - length) {
            throw new CorruptFileException(file.path(), block.address(),
                    FractalHeapDirectBlock.IDENTITY.structure(), "object at heap offset "
                    + offset, "inside the block's " + block.bytes().length + " bytes after its "
                    + prefix + "-byte prefix", length + " bytes at " + within);
        }
        return Arrays.copyOfRange(block.bytes(), (int) within, (int) (within + length));
    }

    /** The direct block whose range holds heap offset {@code offset}. */
    private FractalHeapDirectBlock directBlockHolding(long offset) throws IOException {
        if (!Addresses.isDefined(header.rootBlockAddress())) {
            throw corrupt("root block address", "a block for the object at heap offset "
                    + offset, "none (an empty heap)");
        }
        if (header.rootIndirectRows() == 0) {
            return directBlock(header.rootBlockAddress(), table.startBlockSize(), 0);
        }
        long blockAddress = header.rootBlockAddress();
        long blockOffset = 0;
        int rows = header.rootIndirectRows();
        while (true) {
            FractalHeapIndirectBlock block = indirectBlock(blockAddress, rows, blockOffset);
            long within = offset - blockOffset;
            int row = table.rowOf(within);
            if (within < 0 || row >= rows) {
                throw new CorruptFileException(file.path(), blockAddress,
                        FractalHeapIndirectBlock.IDENTITY.structure(), "rows",
                        "a row holding heap offset " + offset, rows + " rows from offset "
                        + blockOffset);
            }
            long column = (within - table.rowOffset(row)) / table.rowBlockSize(row);
            long child = block.children()[(int) (row * table.width() + column)];
            long childOffset = blockOffset + table.blockOffset(row, column);
            if (!Addresses.isDefined(child)) {
                throw new CorruptFileException(file.path(), blockAddress,
                        FractalHeapIndirectBlock.IDENTITY.structure(), "child block address",
                        "a block for heap offset " + offset, "the undefined address");
            }
            if (row < table.maxDirectRows()) {
                return directBlock(child, table.rowBlockSize(row), childOffset);
            }
            blockAddress = child;
            blockOffset = childOffset;
            rows = table.indirectRows(row);
        }
    }

    private FractalHeapIndirectBlock indirectBlock(long at, int rows, long blockOffset)
            throws IOException {
        FractalHeapIndirectBlock block = indirectBlocks.get(at);
        if (block == null || block.blockOffset() != blockOffset || block.rows() != rows) {
            block = FractalHeapIndirectBlock.read(file, at, rows, address, header, blockOffset);
            indirectBlocks.put(at, block);
        }
        return block;
    }

    private FractalHeapDirectBlock directBlock(long at, long size, long blockOffset)
            throws IOException {
        FractalHeapDirectBlock block = directBlocks.get(at);
        if (block == null || block.blockOffset() != blockOffset) {
            block = FractalHeapDirectBlock.read(file, at, size, address, header, blockOffset);
            directBlocks.put(at, block);
        }
        return block;
    }

    private byte[] readHuge(long key) throws IOException {
        if (!Addresses.isDefined(header.hugeObjectsBTreeAddress())) {
            throw corrupt("v2 B-tree address of huge objects", "a tree for huge object "
                    + key, "the undefined address");
        }
        BTreeV2HugeObjectRecord record = verifiedHugeObjects != null
                ? verifiedHugeObjects.get(key)
                : hugeObjects().find(r -> Long.compareUnsigned(r.key(), key));
        if (record == null) {
            throw corrupt("huge object ID", "an ID in the huge object B-tree",
                    Long.toUnsignedString(key));
        }
        return readHuge(record.address(), record.length());
    }

    private BTreeV2Reader<BTreeV2HugeObjectRecord> hugeObjects() throws IOException {
        if (hugeObjects == null) {
            hugeObjects = BTreeV2Reader.open(file, header.hugeObjectsBTreeAddress(),
                    BTreeV2RecordFormat.exactly(BTreeV2HugeObjectRecord.FORMAT));
        }
        return hugeObjects;
    }

    /**
     * Walks every node of the huge-object B-tree, if the heap has one (see
     * {@link BTreeV2Walk}), and checks that each huge object lies inside the file; later reads
     * of huge objects find them without reading the tree again.
     */
    void verifyHugeObjectIndex() throws IOException {
        if (!Addresses.isDefined(header.hugeObjectsBTreeAddress())) {
            return;
        }
        Map<Long, BTreeV2HugeObjectRecord> byKey = new HashMap<>();
        hugeObjects().forEach((a, b) -> Long.compareUnsigned(a.key(), b.key()), true, record -> {
            if (record.length() < 0 || record.address() < 0
                    || record.address() > file.size() - record.length()) {
                throw new CorruptFileException(file.path(), hugeObjects.address(),
                        BTreeV2Header.IDENTITY.structure(), "huge object " + record.key(),
                        "an object inside the file of " + file.size() + " bytes",
                        Long.toUnsignedString(record.length()) + " bytes at "
                                + Long.toUnsignedString(record.address()));
            }
            byKey.put(record.key(), record);
        });
        verifiedHugeObjects = byKey;
    }

    private byte[] readHuge(long at, long length) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE - 64) {
            throw corrupt("huge object length", "an object that fits in memory",
                    Long.toUnsignedString(length));
        }
        return file.read(at, (int) length, "huge fractal heap object");
    }

    /**
     * Visits every allocated block in heap offset order, reading and verifying each (checksums,
     * back pointers, offsets); a block reached twice is corrupt. While the visitor runs, the
     * block and the indirect blocks above it are the most recently used, so {@link #read} of an
     * object in the block reads nothing again.
     */
    void forEachBlock(BlockVisitor visitor) throws IOException {
        long root = header.rootBlockAddress();
        if (!Addresses.isDefined(root)) {
            return;
        }
        if (header.rootIndirectRows() == 0) {
            directBlocks.put(root, FractalHeapDirectBlock.read(file, root,
                    table.startBlockSize(), address, header, 0));
            visitor.visit(root, true, 0, table.startBlockSize());
            return;
        }
        visitIndirect(root, header.rootIndirectRows(), 0, visitor, new HashSet<>());
    }

    private void visitIndirect(long at, int rows, long blockOffset, BlockVisitor visitor,
                               Set<Long> seen) throws IOException {
        checkFirstVisit(at, FractalHeapIndirectBlock.IDENTITY.structure(), seen);
        FractalHeapIndirectBlock block = FractalHeapIndirectBlock.read(file, at, rows, address,
                header, blockOffset);
        visitor.visit(at, false, blockOffset, FractalHeapIndirectBlock.size(header, rows));
        for (int row = 0; row < rows; row++) {
            for (int column = 0; column < table.width(); column++) {
                long child = block.children()[row * table.width() + column];
                if (!Addresses.isDefined(child)) {
                    continue;
                }
                long childOffset = blockOffset + table.blockOffset(row, column);
                indirectBlocks.put(at, block);
                if (row < table.maxDirectRows()) {
                    checkFirstVisit(child, FractalHeapDirectBlock.IDENTITY.structure(), seen);
                    directBlocks.put(child, FractalHeapDirectBlock.read(file, child,
                            table.rowBlockSize(row), address, header, childOffset));
                    visitor.visit(child, true, childOffset, table.rowBlockSize(row));
                } else {
                    visitIndirect(child, table.indirectRows(row), childOffset, visitor, seen);
                }
            }
        }
    }

    private void checkFirstVisit(long at, String structure, Set<Long> seen)
            throws CorruptFileException {
        if (!seen.add(at)) {
            throw new CorruptFileException(file.path(), at, structure, "child block address",
                    "an address no other entry of the heap at " + address + " uses",
                    at + ", reached a second time (a cycle or shared block)");
        }
    }

    private CorruptFileException corrupt(String field, String expected, String found) {
        return new CorruptFileException(file.path(), address,
                FractalHeapHeader.IDENTITY.structure(), field, expected, found);
    }

    /** Fails unless the heap's IDs are {@code length} bytes, as its users' records need. */
    void requireHeapIdLength(int length) throws CorruptFileException {
        if (header.heapIdLength() != length) {
            throw corrupt("heap ID length", length + " (the index records' heap IDs)",
                    Integer.toString(header.heapIdLength()));
        }
    }
}
