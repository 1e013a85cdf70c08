package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The chunk store's crash-safety rules together with its partial rewrites: where a chunk goes,
 * and that each written chunk has a proxy in the metadata cache marked written.
 */
class InPlaceChunkStoreTest {

    @TempDir
    Path directory;

    private static ByteBuffer bytes(int length, int first) {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            buffer.put(i, (byte) (first + i));
        }
        return buffer;
    }

    private static byte[] array(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    @Test
    void anUnfilteredChunkAFlushedStateHoldsIsRewrittenInPartInPlaceWithAWrittenProxy()
            throws IOException {
        try (Storage storage = FileStorage.open(directory.resolve("f"), OpenMode.CREATE_NEW)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            InPlaceChunkStore store = new InPlaceChunkStore(blocks, cache, false);
            ChunkRecord written = store.write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            blocks.flushBegins();

            ChunkRecord after = store.overwrite(written, 4, bytes(4, 100));

            assertEquals(written, after);
            assertTrue(cache.contains(written.address()));
            assertFalse(cache.isDirty(written.address()), "the proxy is marked written");
            byte[] expected = array(bytes(16, 0));
            System.arraycopy(array(bytes(4, 100)), 0, expected, 4, 4);
            assertArrayEquals(expected, store.read(written));
            ByteBuffer part = ByteBuffer.allocate(4);
            store.read(written, 4, part);
            assertArrayEquals(array(bytes(4, 100)), part.array());
        }
    }

    @Test
    void aFilteredChunkMovesOnlyOnceAFlushedStateMayPointAtIt() throws IOException {
        try (Storage storage = FileStorage.open(directory.resolve("f"), OpenMode.CREATE_NEW)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            InPlaceChunkStore store = new InPlaceChunkStore(blocks, cache, true);
            ChunkRecord first = store.write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            ChunkRecord rewritten = store.write(first, bytes(16, 50));
            assertEquals(first.address(), rewritten.address(), "new since the last flush");
            blocks.flushBegins();

            ChunkRecord moved = store.write(rewritten, bytes(16, 100));

            assertNotEquals(rewritten.address(), moved.address());
            assertArrayEquals(array(bytes(16, 50)), store.read(rewritten), "flushed bytes kept");
            assertArrayEquals(array(bytes(16, 100)), store.read(moved));
            assertTrue(cache.contains(moved.address()));
            assertFalse(cache.isDirty(moved.address()));
            assertThrows(IllegalStateException.class,
                    () -> store.overwrite(moved, 0, bytes(4, 0)));
        }
    }
}
