package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SionSerialWriterTest {

    @TempDir
    Path directory;

    /** Bytes k of a test record: distinct per task and position so misplaced bytes show. */
    static byte[] pattern(int task, long start, int length) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = SionTestVectors.patternByte(start + i, task);
        }
        return data;
    }

    @Test
    void recordThatDoesNotFitTheRestOfTheChunkStartsTheNextChunk() throws IOException {
        Path file = directory.resolve("records.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {1000, 100}, new long[] {0, 1}, 4096,
                SionWriteOptions.defaults())) {
            long written = 0;
            for (int length : new int[] {3000, 3000, 2000, 1500}) {
                writer.write(pattern(0, written, length));
                written += length;
            }
            writer.selectTask(1);
            writer.write(pattern(1, 0, 4096));
            writer.write(pattern(1, 4096, 10));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {3000, 3000, 3500}, sion.task(0).bytesPerChunk());
            assertArrayEquals(new long[] {4096, 10}, sion.task(1).bytesPerChunk(), "a full chunk moves on");
            assertArrayEquals(pattern(0, 0, 9500), sion.readFully(0));
            assertArrayEquals(pattern(1, 0, 4106), sion.readFully(1));
            PhysicalFileMetadata metadata = sion.physicalFiles().get(0);
            assertEquals(1, metadata.meta1().fixedPart().fileNumber(), "the serial writer stores filenumber 1");
            assertEquals(file.toString(), metadata.meta1().fixedPart().prefix());
            assertEquals(0, metadata.mappingSize().orElseThrow(), "serial trailer");
            assertEquals(metadata.endOfMeta2() + 4, Files.size(file));
        }
    }

    @Test
    void ensureFreeSpaceStartsTheNextChunkOnlyWhenTheBytesWouldNotFitAsSionlibDoes() throws IOException {
        Path file = directory.resolve("ensure.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {100}, new long[] {0}, 50,
                SionWriteOptions.defaults())) {
            writer.ensureFreeSpace(100);                // an empty chunk is never left behind
            writer.write(pattern(0, 0, 60));
            writer.ensureFreeSpace(40);                 // 60 + 40 fits exactly: stay
            writer.write(pattern(0, 60, 10));
            writer.ensureFreeSpace(31);                 // 70 + 31 does not fit: next chunk
            writer.write(pattern(0, 70, 20));           // a header and its body, in two writes,
            writer.write(pattern(0, 90, 11));           // stay together
            writer.ensureFreeSpace(0);
            assertThrows(IllegalArgumentException.class, () -> writer.ensureFreeSpace(101), "more than a chunk");
            assertThrows(IllegalArgumentException.class, () -> writer.ensureFreeSpace(-1));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {70, 31}, sion.task(0).bytesPerChunk());
            assertArrayEquals(pattern(0, 0, 101), sion.readFully(0));
        }
    }

    @Test
    void ensureFreeSpaceKeepsAKeyValueRecordWithItsHeaderInOneChunk() throws IOException {
        Path file = directory.resolve("ensure-kv.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE))) {
            writer.writeKeyValue(1, ByteBuffer.wrap(pattern(1, 0, 20)));
            writer.ensureFreeSpace(16 + 30);
            writer.writeKeyValue(2, ByteBuffer.wrap(pattern(2, 0, 30)));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {36, 46}, sion.task(0).bytesPerChunk(), "without it: 64 and 18");
            assertArrayEquals(pattern(2, 0, 30), sion.readKey(0, 2));
        }
    }

    @Test
    void writeLargerThanTheCapacitySpansChunksFillingEachToCapacity() throws IOException {
        Path file = directory.resolve("span.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {300}, new long[] {0}, 512,
                SionWriteOptions.defaults())) {
            writer.write(pattern(0, 0, 100));
            writer.write(pattern(0, 100, 1300));
            writer.write(pattern(0, 1400, 200));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {512, 512, 376, 200}, sion.task(0).bytesPerChunk(),
                    "the big write fills the rest of chunk 0 and chunk 1; the next record does not fit chunk 2's rest");
            assertArrayEquals(pattern(0, 0, 1600), sion.readFully(0));
        }
    }

    @Test
    void taskThatWritesNothingOwnsOneEmptyChunkAndZeroCapacityRejectsData() throws IOException {
        Path file = directory.resolve("empty.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {0, 10}, new long[] {5, 6}, 1,
                SionWriteOptions.defaults())) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> writer.write(new byte[1]));
            assertEquals("task 0 has chunk capacity 0 and cannot hold data", refused.getMessage());
            writer.write(new byte[0]);
            assertEquals(0, writer.currentTask());
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {0}, sion.task(0).bytesPerChunk());
            assertArrayEquals(new long[] {0}, sion.task(1).bytesPerChunk());
            assertEquals(List.of(5L, 6L), sion.tasks().stream().map(SionTask::globalRank).toList());
            assertEquals(1152 - 32, sion.task(0).firstChunkOffset(), "fsblksize 1: data right behind META1");
        }
    }

    @Test
    void bigEndianMetadataIsWrittenSymmetricallyAndSwappedOnRead() throws IOException {
        Path file = directory.resolve("big.sion");
        SionWriteOptions options = SionWriteOptions.defaults().withMetadataOrder(ByteOrder.BIG_ENDIAN)
                .withUserDataOrder(ByteOrder.BIG_ENDIAN);
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {100, 100}, new long[] {0, 1}, 64,
                options)) {
            writer.write(pattern(0, 0, 150));
            writer.selectTask(1);
            writer.write(pattern(1, 0, 7));
        }
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(new byte[] {1, 1, 1, 1}, java.util.Arrays.copyOfRange(bytes, 4, 8));
        assertEquals(2, ByteBuffer.wrap(bytes, 24, 4).order(ByteOrder.BIG_ENDIAN).getInt(), "ntasks big-endian");
        try (SionFile sion = SionFile.open(file)) {
            assertEquals(ByteOrder.BIG_ENDIAN, sion.metadataOrder());
            assertEquals(ByteOrder.BIG_ENDIAN, sion.userDataOrder());
            assertArrayEquals(new long[] {128, 22}, sion.task(0).bytesPerChunk());
            assertArrayEquals(pattern(0, 0, 150), sion.readFully(0));
            assertArrayEquals(pattern(1, 0, 7), sion.readFully(1));
        }
    }

    @Test
    void keyValueRecordsSplitAcrossChunksAndReadBackByKey() throws IOException {
        Path file = directory.resolve("kv.sion");
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                    SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE).withMetadataOrder(order))) {
                assertThrows(IllegalStateException.class, () -> writer.write(new byte[1]), "plain write in kv mode");
                writer.writeKeyValue(9, ByteBuffer.wrap(pattern(9, 0, 100)));
                writer.writeKeyValue(4, ByteBuffer.allocate(0));
                writer.writeKeyValue(9, ByteBuffer.wrap(pattern(9, 100, 30)));
            }
            try (SionFile sion = SionFile.open(file)) {
                assertEquals(KeyValueMode.INLINE, sion.keyValueMode());
                assertArrayEquals(new long[] {64, 64, 50}, sion.task(0).bytesPerChunk(), "3 headers + 130 bytes = 178");
                List<KeyValueRecord> records = sion.keyValueRecords(0);
                assertEquals(List.of(new KeyValueRecord(9, 100, 16), new KeyValueRecord(4, 0, 132),
                        new KeyValueRecord(9, 30, 148)), records);
                assertArrayEquals(pattern(9, 0, 130), sion.readKey(0, 9));
                assertArrayEquals(pattern(9, 100, 30), sion.readRecord(0, records.get(2)));
                assertEquals(0, sion.readKey(0, 4).length);
                assertEquals(0, sion.readKey(0, 5).length, "an absent key has no data");
            }
        }
    }

    @Test
    void manyTasksInterleavedKeepTheirOwnStreams() throws IOException {
        Path file = directory.resolve("interleaved.sion");
        int taskCount = 7;
        ByteArrayOutputStream[] expected = new ByteArrayOutputStream[taskCount];
        long[] requested = new long[taskCount];
        for (int task = 0; task < taskCount; task++) {
            expected[task] = new ByteArrayOutputStream();
            requested[task] = 50 + 40L * task;
        }
        try (SionSerialWriter writer = SionSerialWriter.create(file, requested, new long[taskCount], 32,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            for (int round = 0; round < 20; round++) {
                for (int task = (round * 3) % taskCount, n = 0; n < taskCount; n++, task = (task + 1) % taskCount) {
                    writer.selectTask(task);
                    byte[] record = pattern(task, expected[task].size(), (round * 37 + task * 11) % 90);
                    writer.write(record);
                    expected[task].write(record);
                }
            }
        }
        try (SionFile sion = SionFile.open(file)) {
            for (int task = 0; task < taskCount; task++) {
                assertArrayEquals(expected[task].toByteArray(), sion.readFully(task), "task " + task);
            }
        }
    }

    @Test
    void recordOfExactlyOneChunkIntoAPartlyFilledChunkStartsTheNextChunkWhole() throws IOException {
        Path file = directory.resolve("boundary.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {512}, new long[] {0}, 512,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.write(pattern(0, 0, 100));
            writer.write(pattern(0, 100, 512));
            writer.write(pattern(0, 612, 412));
            writer.write(pattern(0, 1024, 100));
            writer.write(pattern(0, 1124, 1));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertArrayEquals(new long[] {100, 512, 512, 1}, sion.task(0).bytesPerChunk(),
                    "a record of exactly the capacity is never split; one of exactly the rest of a chunk fills it");
            assertArrayEquals(pattern(0, 0, 1125), sion.readFully(0));
            assertEquals(1536 + 2 * 512, sion.task(0).chunkOffset(2), "META1 of 1104 bytes aligned to 1536; two rows of 512");
        }
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(pattern(0, 100, 512), java.util.Arrays.copyOfRange(bytes, 1536 + 512, 1536 + 1024),
                "the whole record lies in chunk 1");
    }

    @Test
    void closedWriterRefusesEveryUseAndASecondCloseChangesNothing() throws IOException {
        Path file = directory.resolve("closed.sion");
        SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64, 64}, new long[] {0, 1}, 64,
                SionWriteOptions.defaults().withFsyncOnClose(false));
        writer.write(pattern(0, 0, 10));
        writer.close();
        byte[] closed = Files.readAllBytes(file);
        for (org.junit.jupiter.api.function.Executable use : List.<org.junit.jupiter.api.function.Executable>of(
                () -> writer.write(new byte[1]), () -> writer.selectTask(1),
                () -> writer.writeKeyValue(1, ByteBuffer.allocate(1)), () -> writer.ensureFreeSpace(1))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, use);
            assertEquals("the SION writer is closed", e.getMessage());
        }
        writer.close();
        assertArrayEquals(closed, Files.readAllBytes(file), "a second close writes nothing");
    }

    @Test
    void selectingATaskOutsideTheFileIsRefusedAndKeepsTheCurrentTask() throws IOException {
        try (SionSerialWriter writer = SionSerialWriter.create(directory.resolve("tasks.sion"), new long[] {64, 100},
                new long[] {0, 1}, 64, SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.selectTask(1);
            for (int task : new int[] {-1, 2}) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                        () -> writer.selectTask(task));
                assertEquals("task " + task + " of 2", e.getMessage());
            }
            assertEquals(1, writer.currentTask());
            assertEquals(128, writer.chunkCapacity(1), "100 aligned to 64");
        }
    }

    @Test
    void createRefusesMismatchedRanksAndBlockSizesBelowOne() {
        Path file = directory.resolve("refused.sion");
        IllegalArgumentException noTasks = assertThrows(IllegalArgumentException.class,
                () -> SionSerialWriter.create(file, new long[0], new long[0], 64, SionWriteOptions.defaults()));
        assertEquals("need at least one task and one global rank per task, got 0 chunk sizes and 0 global ranks",
                noTasks.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SionSerialWriter.create(file, new long[] {1, 2}, new long[] {0}, 64, SionWriteOptions.defaults()));
        IllegalArgumentException block = assertThrows(IllegalArgumentException.class,
                () -> SionSerialWriter.create(file, new long[] {1}, new long[] {0}, 0, SionWriteOptions.defaults()));
        assertEquals("fsBlockSize must be at least 1, got 0", block.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> SionSerialWriter.create(file, new long[] {1, -1}, new long[] {0, 1}, 1, SionWriteOptions.defaults()));
        assertEquals("chunk size of task 1 is negative: -1", negative.getMessage());
        assertFalse(Files.exists(file), "nothing is created for a refused request");
    }

    @Test
    void keyValueAccessNeedsInlineModeCapacityAndWholeHeaders() throws IOException {
        Path file = directory.resolve("plain.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN).withFsyncOnClose(false))) {
            IllegalStateException plain = assertThrows(IllegalStateException.class,
                    () -> writer.writeKeyValue(1, ByteBuffer.allocate(1)));
            assertEquals("key-value writes need key-value mode INLINE; the file was opened with NONE", plain.getMessage());
            writer.write(pattern(0, 0, 10));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertEquals(file, sion.name());
            org.quire.format.UnsupportedFormatException notInline = assertThrows(
                    org.quire.format.UnsupportedFormatException.class, () -> sion.keyValueRecords(0));
            assertEquals("mode NONE", notInline.found());
            assertEquals(Meta1Layout.FLAG1_OFFSET, notInline.offset());
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(Meta1Layout.FLAG1_OFFSET,
                KeyValueMode.INLINE.flag1());
        Path inline = directory.resolve("inline.sion");
        Files.write(inline, bytes);
        try (SionFile sion = SionFile.open(inline)) {
            org.quire.format.CorruptFileException cut = assertThrows(org.quire.format.CorruptFileException.class,
                    () -> sion.keyValueRecords(0));
            assertEquals(sion.task(0).firstChunkOffset(), cut.offset());
            assertEquals("header of record 0 of task 0", cut.field());
            assertEquals("16 bytes", cut.expected());
            assertEquals("10 bytes before the end of the task stream", cut.found());
        }

        try (SionSerialWriter writer = SionSerialWriter.create(directory.resolve("kv0.sion"), new long[] {0, 64},
                new long[] {0, 1}, 64, SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)
                        .withFsyncOnClose(false))) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> writer.writeKeyValue(1, ByteBuffer.allocate(1)));
            assertEquals("task 0 has chunk capacity 0 and cannot hold data", refused.getMessage());
        }
    }

    @Test
    void createReplacesALongerFileUnderTheSameName() throws IOException {
        Path file = directory.resolve("reused.sion");
        Files.write(file, new byte[100_000]);
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.write(pattern(0, 0, 10));
        }
        try (SionFile sion = SionFile.open(file)) {
            assertEquals(sion.physicalFiles().get(0).endOfMeta2() + 4, Files.size(file), "nothing of the old file is left");
        }
    }
}
