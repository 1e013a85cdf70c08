package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quire.format.sion.SionSerialWriterTest.pattern;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskStreamChannelTest {

    @TempDir
    Path directory;

    /** Task 0 of a file with three chunks of 200 bytes, where META2 says chunk 1 holds nothing. */
    private Path fileWithAnEmptyMiddleChunk() throws IOException {
        Path file = directory.resolve("gap.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {256}, new long[] {0}, 256,
                SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN))) {
            for (int record = 0; record < 3; record++) {
                writer.write(pattern(0, 200L * record, 200));
            }
        }
        PhysicalFileMetadata metadata = SionFile.readPhysicalFile(file);
        byte[] bytes = Files.readAllBytes(file);
        long fillOfChunk1 = metadata.meta1().startOfMeta2() + Meta2Layout.bytesInChunkOffset(1, 1, 0);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) fillOfChunk1, 0);
        Files.write(file, bytes);
        return file;
    }

    @Test
    void emptyChunksAreSkippedAndReadsCrossChunkBoundaries() throws IOException {
        try (SionFile sion = SionFile.open(fileWithAnEmptyMiddleChunk());
             TaskStreamChannel stream = sion.openTaskStream(0)) {
            SionTask task = stream.task();
            assertArrayEquals(new long[] {200, 0, 200}, task.bytesPerChunk());
            assertEquals(400, stream.size());
            assertEquals(task.chunkOffset(2), stream.fileOffsetOf(200), "stream byte 200 is the first of chunk 2");
            assertEquals(task.chunkOffset(0) + 199, stream.fileOffsetOf(199));

            ByteBuffer window = ByteBuffer.allocate(4);
            stream.position(198);
            assertEquals(2, stream.read(window), "one read stops at the end of a chunk");
            assertEquals(4, 2 + stream.read(window));
            byte[] expected = new byte[4];
            System.arraycopy(pattern(0, 198, 2), 0, expected, 0, 2);
            System.arraycopy(pattern(0, 400, 2), 0, expected, 2, 2);
            assertArrayEquals(expected, window.array());

            byte[] all = sion.readFully(0);
            assertArrayEquals(pattern(0, 0, 200), Arrays.copyOfRange(all, 0, 200));
            assertArrayEquals(pattern(0, 400, 200), Arrays.copyOfRange(all, 200, 400));

            stream.position(1000);
            assertEquals(-1, stream.read(ByteBuffer.allocate(1)), "beyond the end reads end of stream");
            assertThrows(NonWritableChannelException.class, () -> stream.write(ByteBuffer.allocate(1)));
            assertThrows(IllegalArgumentException.class, () -> stream.position(-1));
            assertEquals(1000, stream.position());
            assertEquals(true, stream.isOpen());
            stream.close();
            assertEquals(false, stream.isOpen());
            assertThrows(ClosedChannelException.class, () -> stream.read(ByteBuffer.allocate(1)));
            assertThrows(ClosedChannelException.class, () -> stream.position(0));
        }
    }

    @Test
    void aFileThatShrankAfterOpenIsCorruptWhereItsDataEnds() throws IOException {
        Path file = fileWithAnEmptyMiddleChunk();
        try (SionFile sion = SionFile.open(file)) {
            SionTask task = sion.task(0);
            long end = task.chunkOffset(2) + 50;
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.WRITE)) {
                channel.truncate(end);
            }
            TaskStreamChannel stream = sion.openTaskStream(0);
            stream.position(210);
            org.quire.format.CorruptFileException e = assertThrows(org.quire.format.CorruptFileException.class,
                    () -> stream.read(ByteBuffer.allocate(100)));
            assertEquals(end, e.offset());
            assertEquals("chunk", e.structure());
            assertEquals("data of task 0 in chunk 2", e.field());
            assertEquals("200 bytes from offset " + task.chunkOffset(2), e.expected());
            assertEquals("end of file (the file shrank after its metadata was read)", e.found());
        }
    }
}
