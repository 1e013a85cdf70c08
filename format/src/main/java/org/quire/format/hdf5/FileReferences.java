package org.quire.format.hdf5;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.quire.format.hdf5.layout.DatatypeDescription;
import org.quire.format.hdf5.layout.GlobalHeapCollection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.StoredReferences;

/**
 * Resolves what messages of one file point at: committed datatypes (read once per object
 * header) and global heap collections (read and checked once each).
 */
final class FileReferences implements StoredReferences {

    private final Hdf5File file;
    private final Map<Long, DatatypeDescription> committed = new HashMap<>();
    private final Map<Long, GlobalHeapCollection> collections = new HashMap<>();

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
        GlobalHeapCollection collection = collections.get(id.collectionAddress());
        if (collection == null) {
            collection = GlobalHeapCollection.read(file.blocks(), id.collectionAddress());
            collections.put(id.collectionAddress(), collection);
        }
        return collection.object(file.path(), id);
    }
}
