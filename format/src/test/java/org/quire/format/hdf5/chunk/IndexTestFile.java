package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.nio.file.Path;

import org.quire.format.hdf5.cache.ChunkProxy;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * A chunk index's blocks in a test: a real file, its {@link BlockFile}, and the metadata
 * caches over it through which an index (or the chunk store) reaches its blocks ({@link
 * #blocks}). A test takes a cache per phase (writing, reading, a bound to hold), all on the
 * same storage.
 */
final class IndexTestFile implements AutoCloseable {

    /** Taken at creation, where a file's superblock would be, so no block starts at 0. */
    private static final long RESERVED = 64;

    private final Storage storage;
    private final BlockFile file;

    private IndexTestFile(Storage storage, BlockFile file) {
        this.storage = storage;
        this.file = file;
    }

    /** A new file at {@code path}, its first {@value #RESERVED} bytes allocated. */
    static IndexTestFile create(Path path) throws IOException {
        IndexTestFile created = open(path, OpenMode.CREATE_NEW);
        created.file.allocate(RESERVED);
        return created;
    }

    /** The file at {@code path} opened in {@code mode}, nothing allocated. */
    static IndexTestFile open(Path path, OpenMode mode) throws IOException {
        return open(FileStorage.OPENER, path, mode);
    }

    /**
     * The file at {@code path} opened by {@code opener} (one that counts reads and writes, or
     * a crash simulator) in {@code mode}, nothing allocated.
     */
    static IndexTestFile open(StorageOpener opener, Path path, OpenMode mode)
            throws IOException {
        Storage storage = opener.open(path, mode);
        try {
            return new IndexTestFile(storage, new BlockFile(storage));
        } catch (IOException | RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    BlockFile file() {
        return file;
    }

    /** The bytes under the {@link BlockFile}: for a test that writes past its allocation. */
    Storage storage() {
        return storage;
    }

    /** A new cache over the file that holds at most {@code maxBytes} (nothing forced). */
    MetadataCache cache(long maxBytes) {
        return new MetadataCache(storage, maxBytes, Durability.NONE);
    }

    /** An index's way to its blocks in this file through {@code cache}. */
    IndexBlocks blocks(MetadataCache cache) {
        return new IndexBlocks(file, cache);
    }

    /** A chunk's record of {@code bytes} at a real place in the file. */
    ChunkRecord chunk(long bytes) throws IOException {
        return new ChunkRecord(file.allocate(bytes), bytes, 0);
    }

    /**
     * A chunk's record at a real place in the file, its proxy in {@code cache}, written: a
     * block recording it must wait for it.
     */
    ChunkRecord writtenChunk(MetadataCache cache, long bytes) throws IOException {
        ChunkRecord chunk = chunk(bytes);
        cache.insert(new ChunkProxy(chunk.address(), bytes));
        cache.chunkWritten(chunk.address());
        return chunk;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
