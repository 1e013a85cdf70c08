package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Contiguous and compact element storage: hyperslabs come from the right bytes, and a layout
 * message whose size or address cannot be right is corrupt before anything is read.
 */
class ContiguousDataTest {

    @TempDir
    Path dir;

    private BlockFile file() throws IOException {
        return countingFile(dir);
    }

    /** A 100-byte file in {@code dir} whose byte {@code i} is {@code i}. */
    static BlockFile countingFile(Path dir) throws IOException {
        Path path = dir.resolve("bytes.bin");
        byte[] bytes = new byte[100];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        Files.write(path, bytes);
        return new BlockFile(FileStorage.open(path, OpenMode.READ));
    }

    /** Reads through a byte array target, as {@code Dataset.read} into a {@code byte[]}. */
    private static void read(ContiguousData data, long[] start, long[] count, byte[] target,
                             byte[] fillElement) throws IOException {
        Datatype type = fillElement.length == 1 ? Datatype.UINT8 : Datatype.UINT32;
        data.read(start, count, SelectionTarget.of(ByteBuffer.wrap(target), type), fillElement,
                new TransferBuffer());
    }

    @Test
    void readsAHyperslabOfA3dBlockAtItsAddress() throws IOException {
        try (BlockFile blocks = file()) {
            // 3 x 4 x 5 one-byte elements from address 10: element (i, j, k) is 10 + 20i + 5j + k.
            ContiguousData data = ContiguousData.contiguous(blocks, 0, 10, 60,
                    new long[] {3, 4, 5}, 1);
            byte[] target = new byte[2 * 2 * 3];
            read(data, new long[] {1, 2, 1}, new long[] {2, 2, 3}, target, new byte[1]);
            assertArrayEquals(new byte[] {41, 42, 43, 46, 47, 48, 61, 62, 63, 66, 67, 68},
                    target);
            // Whole trailing dimensions are read as one run per leading index.
            byte[] rows = new byte[2 * 20];
            read(data, new long[] {1, 0, 0}, new long[] {2, 4, 5}, rows, new byte[1]);
            for (int i = 0; i < rows.length; i++) {
                assertEquals(30 + i, rows[i]);
            }
        }
    }

    @Test
    void aBlockNeverAllocatedReadsAsTheFillValue() throws IOException {
        try (BlockFile blocks = file()) {
            ContiguousData data = ContiguousData.contiguous(blocks, 0, Addresses.UNDEFINED, 24,
                    new long[] {6}, 4);
            byte[] target = new byte[8];
            read(data, new long[] {2}, new long[] {2}, target, new byte[] {1, 2, 3, 4});
            assertArrayEquals(new byte[] {1, 2, 3, 4, 1, 2, 3, 4}, target);
        }
    }

    @Test
    void compactDataIsCopiedFromTheMessage() throws IOException {
        try (BlockFile blocks = file()) {
            byte[] message = {0, 1, 2, 3, 4, 5};
            ContiguousData data = ContiguousData.compact(blocks, 0, message, new long[] {2, 3}, 1);
            assertEquals(StorageLayout.COMPACT, data.layout());
            byte[] target = new byte[2];
            read(data, new long[] {0, 1}, new long[] {2, 1}, target, new byte[1]);
            assertArrayEquals(new byte[] {1, 4}, target);
        }
    }

    @Test
    void aSizeOtherThanTheShapesOrABlockBeyondTheFileIsCorrupt() throws IOException {
        try (BlockFile blocks = file()) {
            CorruptFileException size = assertThrows(CorruptFileException.class,
                    () -> ContiguousData.contiguous(blocks, 7, 10, 61, new long[] {3, 4, 5}, 1));
            assertEquals(7, size.offset());
            assertTrue(size.getMessage().contains("61"), size.getMessage());
            CorruptFileException beyond = assertThrows(CorruptFileException.class,
                    () -> ContiguousData.contiguous(blocks, 7, 50, 60, new long[] {60}, 1));
            assertEquals(50, beyond.offset());
            assertThrows(CorruptFileException.class, () -> ContiguousData.contiguous(blocks, 7,
                    Long.MAX_VALUE - 8, 16, new long[] {2}, 8));
            assertThrows(CorruptFileException.class,
                    () -> ContiguousData.compact(blocks, 7, new byte[5], new long[] {2, 3}, 1));
        }
    }

    @Test
    void aBlockLargerThanTheWholeFileIsCorrupt() throws IOException {
        try (BlockFile blocks = file()) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ContiguousData.contiguous(blocks, 7, 0, 200, new long[] {200}, 1));
            assertEquals("address", e.field());
            assertTrue(e.expected().contains("200 bytes inside the file of 100"), e.expected());
        }
    }
}
