package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

class WritableObjectHeaderTest {

    @TempDir
    Path dir;

    private MetadataCache cache;

    private BlockFile open() throws Exception {
        Storage storage = FileStorage.open(dir.resolve("header.h5"), OpenMode.CREATE_OR_OPEN);
        cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
        return new BlockFile(storage);
    }

    @Test
    void messagesThatDoNotFitGoToContinuationBlocksAndReadBackInOrder() throws Exception {
        try (BlockFile file = open()) {
            WritableObjectHeader header = new WritableObjectHeader(file, cache, List.of(), 0);
            List<byte[]> bodies = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                byte[] body = new byte[10 + 7 * i];
                java.util.Arrays.fill(body, (byte) i);
                bodies.add(body);
                header.add(HeaderMessage.of(0x0C, 0, body));
            }
            cache.flush();
            List<HeaderMessage> read = ObjectHeaderV2.read(file, header.address());
            assertEquals(40, read.size());
            for (int i = 0; i < 40; i++) {
                assertArrayEquals(bodies.get(i), read.get(i).body(), "message " + i);
            }
        }
    }

    @Test
    void replacingABodyRewritesItInPlace() throws Exception {
        try (BlockFile file = open()) {
            WritableObjectHeader header = new WritableObjectHeader(file, cache,
                    List.of(HeaderMessage.of(0x01, 0, new byte[] {1, 2, 3})), 16);
            cache.flush();
            long end = file.endOfAllocation();
            header.replace(0, new byte[] {4, 5, 6});
            cache.flush();
            assertEquals(end, file.endOfAllocation());
            assertArrayEquals(new byte[] {4, 5, 6},
                    ObjectHeaderV2.read(file, header.address()).get(0).body());
            assertThrows(IllegalStateException.class, () -> header.replace(0, new byte[2]));
        }
    }

    /**
     * A header read back from the file (as a reopened file's): its chunk 0 is full, as
     * libhdf5 may leave it, so its last messages move to the new continuation block to make
     * room for the continuation message; the messages read back in order, the new one last,
     * and chunk 0 keeps its address and its fields before the messages.
     */
    @Test
    void aFullChunkOfAnExistingHeaderMovesItsLastMessageToMakeRoomForAContinuation()
            throws Exception {
        List<HeaderMessage> stored = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            byte[] body = new byte[8 + 2 * i];
            java.util.Arrays.fill(body, (byte) i);
            stored.add(HeaderMessage.of(0x0C, 0, body));
        }
        int capacity = 0;
        for (HeaderMessage message : stored) {
            capacity += message.storedSize();
        }
        try (BlockFile file = open()) {
            byte[] chunk = ObjectHeaderV2.encodeChunkZero(stored, capacity);
            long address = file.allocate(chunk.length);
            file.write(address, chunk);
            WritableObjectHeader header = WritableObjectHeader.open(file, cache, address);
            assertEquals(3, header.messages().size());
            assertEquals(0, header.handleOf(0x0C));
            assertEquals(-1, header.handleOf(0x01));
            header.add(HeaderMessage.of(0x0C, 0, new byte[] {4, 4, 4, 4}));
            cache.flush();
            List<HeaderMessage> read = ObjectHeaderV2.read(file, address);
            assertEquals(4, read.size());
            for (int i = 0; i < 4; i++) {
                assertEquals(i + 1, read.get(i).body()[0], "message " + i);
            }
            byte[] rewritten = file.read(address, chunk.length, "object header");
            int prefix = ObjectHeaderV2.chunkZeroPrefixSize(capacity);
            assertArrayEquals(java.util.Arrays.copyOf(chunk, prefix),
                    java.util.Arrays.copyOf(rewritten, prefix));
        }
    }
}
