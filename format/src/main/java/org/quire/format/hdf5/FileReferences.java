package org.quire.format.hdf5;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.quire.format.hdf5.layout.DatatypeDescription;
import org.quire.format.hdf5.layout.GlobalHeapCollection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.GlobalHeapObject;
import org.quire.format.hdf5.layout.StoredReferences;

/**
 * Resolves what messages of one file point at: committed datatypes (read once per object
 * header) and global heap collections (read and checked once, then kept while among the
 * {@link #CACHED_COLLECTIONS} used last: a file's strings can be far larger than the heap). A
 * file being written reads them through its {@link GlobalHeap}, which holds them in the
 * metadata cache.
 */
final class FileReferences implements StoredReferences {

    /**
     * Collections kept: libhdf5's are 4 KiB, Quire's at most about 1 MiB each (a larger one
     * holds a single string), so this bounds the cache at a few MiB for files of many strings.
     */
    static final int CACHED_COLLECTIONS = 8;

    private final Hdf5File file;
    private final Map<Long, DatatypeDescription> committed = new HashMap<>();
    private final Map<Long, GlobalHeapCollection> collections =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, GlobalHeapCollection> eldest) {
                    return size() > CACHED_COLLECTIONS;
                }
            };

    FileReferences(Hdf5File file) {
        this.file = file;
    }

    @Override
    public DatatypeDescription committedDatatype(long address) throws IOException {
        DatatypeDescription type = committed.get(address);
        if (type == null) {
            type = CommittedDatatype.descriptionIn(file, address, file.headerMessages(address));
            committed.put(address, type);
        }
        return type;
    }

    @Override
    public byte[] globalHeapObject(GlobalHeapId id) throws IOException {
        if (file.globalHeap() != null) {
            return file.globalHeap().object(id); // a writer's collections may be newer in its cache
        }
        return collection(id.collectionAddress()).object(file.path(), id);
    }

    /** All bytes of object {@code index} of the global heap collection at {@code address}. */
    GlobalHeapObject globalHeapObject(long address, int index) throws IOException {
        if (file.globalHeap() != null) {
            return file.globalHeap().object(address, index);
        }
        return collection(address).object(file.path(), index);
    }

    private GlobalHeapCollection collection(long address) throws IOException {
        GlobalHeapCollection collection = collections.get(address);
        if (collection == null) {
            collection = GlobalHeapCollection.read(file.blocks(), address);
            collections.put(address, collection);
        }
        return collection;
    }

    /** Collections held now: at most {@link #CACHED_COLLECTIONS}. */
    int cachedCollections() {
        return collections.size();
    }
}
