package org.quire.format.hdf5;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.CacheEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.GlobalHeapCollection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.GlobalHeapObject;
import org.quire.format.hdf5.layout.LittleEndianWriter;

/**
 * The global heap of a file being written: the collections holding the bytes of
 * variable-length strings, as metadata cache entries. As in libhdf5, strings go into the
 * current collection while it has room, then a new current one is started at the end of the
 * file: of {@link GlobalHeapCollection#MINIMUM_SIZE} bytes, or as large as the rest of one call's
 * strings up to {@link #COLLECTION_TARGET_SIZE}. A string too large for a collection of the
 * smallest size gets a collection of its own size, and the current one stays current.
 *
 * <p>Crash safety: a message pointing at a string is written only after its collection (the
 * header chunk holding it depends on the collection). A collection a flushed state points at
 * gains objects only at its free space, and, being published, is rewritten only by a flush,
 * through its journal: a crash leaves either the old image (every object the old state
 * points at intact) or, replayed, the new one. Reopened for writing, the file's last collection
 * (the one at the highest address among those read with a free space at its end) is filled
 * further.
 */
final class GlobalHeap {

    /** Bytes after which one call's strings start another collection. */
    static final int COLLECTION_TARGET_SIZE = 1 << 20;

    private final BlockFile blocks;
    private final MetadataCache cache;
    /** The collection strings go into next, or undefined. */
    private long current = Addresses.UNDEFINED;
    /** Whether {@link #current} was started by this writer (not read from the file). */
    private boolean currentIsNew;

    GlobalHeap(BlockFile blocks, MetadataCache cache) {
        this.blocks = blocks;
        this.cache = cache;
    }

    /**
     * Strings stored in the heap: their elements (global heap IDs), and the collections they
     * went into, held in the cache until {@link #release}, so the header message pointing at
     * them can state its dependency on each.
     */
    final class Stored {
        private final byte[] elements;
        private final Map<Long, CacheEntry> collections;

        private Stored(byte[] elements, Map<Long, CacheEntry> collections) {
            this.elements = elements;
            this.collections = collections;
        }

        byte[] elements() {
            return elements;
        }

        /** Makes the header message {@code handle} of {@code header} depend on the collections. */
        void pointedAtBy(WritableObjectHeader header, int handle) {
            header.dependOn(handle, List.copyOf(collections.keySet()));
        }

        void release() throws IOException {
            GlobalHeap.this.release(collections.values());
        }
    }

    /**
     * Stores {@code strings} (UTF-8 bytes, each in its own heap object), in order.
     *
     * @throws IllegalArgumentException a string holds a NUL byte: libhdf5 hands variable-length
     *     strings to readers as C strings, so h5py would read it cut there (and refuses to
     *     write one)
     */
    Stored store(List<byte[]> strings) throws IOException {
        for (int i = 0; i < strings.size(); i++) {
            byte[] string = strings.get(i);
            for (int b = 0; b < string.length; b++) {
                if (string[b] == 0) {
                    throw new IllegalArgumentException("string " + i + " holds a NUL byte at "
                            + b + ": a variable-length string ends at its first NUL for"
                            + " libhdf5's readers (h5py refuses to write one too)");
                }
            }
        }
        return storeObjects(strings);
    }

    /** Stores {@code blob} (any bytes, such as a virtual dataset's mappings) as one object. */
    Stored storeBlob(byte[] blob) throws IOException {
        return storeObjects(List.of(blob));
    }

    private Stored storeObjects(List<byte[]> strings) throws IOException {
        LittleEndianWriter elements = new LittleEndianWriter();
        Map<Long, CacheEntry> held = new LinkedHashMap<>();
        try {
            for (int i = 0; i < strings.size(); i++) {
                byte[] string = strings.get(i);
                BlockEntry<GlobalHeapCollection> collection = Addresses.isDefined(current)
                        ? hold(held, current) : null;
                if (collection == null || !collection.value().fits(string)) {
                    collection = ownsACollection(string) ? start(List.of(string), false)
                            : start(strings.subList(i, strings.size()), true);
                    held.put(collection.address(), collection);
                }
                int index = collection.value().add(string);
                cache.markDirty(collection);
                elements.putBytes(new GlobalHeapId(string.length, collection.address(), index)
                        .encode());
            }
        } catch (IOException | RuntimeException e) {
            release(held.values());
            throw e;
        }
        return new Stored(elements.toByteArray(), held);
    }

    private void release(Iterable<CacheEntry> collections) throws IOException {
        for (CacheEntry collection : collections) {
            cache.unprotect(collection);
        }
    }

    /** The bytes of the element {@code id}, from the collection as the cache holds it. */
    byte[] object(GlobalHeapId id) throws IOException {
        return object(id.collectionAddress(), collection -> collection.object(blocks.path(), id));
    }

    /** All bytes of object {@code index} of the collection at {@code address}. */
    GlobalHeapObject object(long address, int index) throws IOException {
        return object(address, collection -> collection.object(blocks.path(), index));
    }

    private interface ObjectRead<T> {
        T from(GlobalHeapCollection collection) throws CorruptFileException;
    }

    private <T> T object(long address, ObjectRead<T> read) throws IOException {
        CacheEntry entry = cache.protect(address, CacheEntry.class, this::load);
        try {
            if (entry instanceof BlockEntry<?> block
                    && block.value() instanceof GlobalHeapCollection collection) {
                return read.from(collection);
            }
            throw new CorruptFileException(blocks.path(), address,
                    "global heap collection", "signature", "a global heap collection",
                    entry.toString());
        } finally {
            cache.unprotect(entry);
        }
    }

    /** The collection at {@code address}, protected once for this call's strings. */
    @SuppressWarnings("unchecked")
    private BlockEntry<GlobalHeapCollection> hold(Map<Long, CacheEntry> held, long address)
            throws IOException {
        CacheEntry known = held.get(address);
        if (known != null) {
            return (BlockEntry<GlobalHeapCollection>) known;
        }
        BlockEntry<GlobalHeapCollection> collection = cache.protect(address, BlockEntry.class,
                this::load);
        held.put(address, collection);
        return collection;
    }

    /** Whether {@code string} is too large for a collection of the smallest size. */
    private static boolean ownsACollection(byte[] string) {
        return GlobalHeapCollection.sizeFor(List.of(string)) > GlobalHeapCollection.MINIMUM_SIZE;
    }

    /**
     * A new collection for the first of {@code strings}, sized for it and as many of the
     * others that need no collection of their own as fit in {@link #COLLECTION_TARGET_SIZE}
     * (and {@link GlobalHeapCollection#MAXIMUM_OBJECTS}); it becomes the current one when
     * {@code current} says so.
     */
    private BlockEntry<GlobalHeapCollection> start(List<byte[]> strings, boolean current)
            throws IOException {
        long size = GlobalHeapCollection.sizeFor(List.of(strings.get(0)));
        int objects = 1;
        for (int i = 1; i < strings.size() && objects < GlobalHeapCollection.MAXIMUM_OBJECTS;
             i++) {
            if (ownsACollection(strings.get(i))) {
                continue;
            }
            long grown = size + GlobalHeapCollection.objectSize(strings.get(i));
            if (grown > COLLECTION_TARGET_SIZE) {
                break;
            }
            size = grown;
            objects++;
        }
        long address = blocks.allocate(size);
        BlockEntry<GlobalHeapCollection> collection = cache.insertProtected(
                BlockEntry.metadata(address, (int) size,
                        GlobalHeapCollection.empty(address, size), GlobalHeapCollection::image));
        if (current) {
            this.current = address;
            currentIsNew = true;
        }
        return collection;
    }

    /**
     * Reads the collection at {@code address} for the cache; one of the file's with its free
     * space at its end, above the current one read from the file, becomes the current one.
     */
    private BlockEntry<GlobalHeapCollection> load(long address,
            org.quire.format.storage.Storage storage) throws IOException {
        GlobalHeapCollection collection = GlobalHeapCollection.read(blocks, address);
        if (!currentIsNew && collection.fits(new byte[0])
                && (!Addresses.isDefined(current) || address > current)) {
            current = address;
        }
        return BlockEntry.metadata(address, collection.size(), collection,
                GlobalHeapCollection::image);
    }
}
