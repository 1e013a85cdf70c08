package org.quire.format.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real file's failures name the file, the operation and the offset. */
class FileStorageTest {

    @TempDir
    Path dir;

    @Test
    void aFullDeviceNamesTheFileTheWriteAndItsOffset() throws IOException {
        Path full = Path.of("/dev/full");
        assertTrue(Files.isWritable(full), "this test needs Linux's /dev/full (always full)");
        try (Storage storage = FileStorage.open(full, OpenMode.READ_WRITE)) {
            StorageIOException error = assertThrows(StorageIOException.class,
                    () -> storage.write(ByteBuffer.wrap(new byte[4096]), 8192));
            assertEquals(full, error.file());
            assertEquals(8192, error.offset());
            assertTrue(error.getMessage().contains("/dev/full: write of 4096 bytes at offset 8192"
                    + " failed: No space left on device"), error.getMessage());
        }
    }

    @Test
    void everyOperationOnAClosedFileNamesIt() throws IOException {
        Path path = dir.resolve("closed.h5");
        Storage storage = FileStorage.open(path, OpenMode.CREATE_NEW);
        storage.close();
        StorageIOException write = assertThrows(StorageIOException.class,
                () -> storage.write(ByteBuffer.wrap(new byte[3]), 10));
        assertEquals(10, write.offset());
        StorageIOException truncate = assertThrows(StorageIOException.class,
                () -> storage.truncate(0));
        assertTrue(truncate.getMessage().startsWith(path + ": truncate to 0 bytes failed"),
                truncate.getMessage());
        StorageIOException force = assertThrows(StorageIOException.class,
                () -> storage.force(true));
        assertEquals(StorageIOException.NO_OFFSET, force.offset());
        assertThrows(StorageIOException.class, () -> storage.read(ByteBuffer.allocate(4), 0));
        assertThrows(StorageIOException.class, storage::size);
    }
}
