package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.sion.SionSerialWriterTest.pattern;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.FormatException;
import org.quire.format.storage.CrashSimulator;

/** Parallel write and read over {@link ThreadGroupCollectives}: one thread per rank. */
class SionParallelTest {

    private static final int FS_BLOCK_SIZE = 64;

    @TempDir
    Path directory;

    static List<Arguments> rankAndFileCounts() {
        List<Arguments> cases = new ArrayList<>();
        for (int ranks : new int[] {1, 2, 3, 4, 5, 8}) {
            for (int files : new int[] {1, 2}) {
                if (files <= ranks) {
                    cases.add(Arguments.of(ranks, files));
                }
            }
        }
        return cases;
    }

    /** The records rank r writes: varied sizes, one of them larger than its chunk capacity. */
    static byte[] streamOf(int rank) throws IOException {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int record = 0; record < 8; record++) {
            int length = record == 5 ? 3 * (int) requestedChunkSize(rank) : (rank * 37 + record * 13) % 150;
            stream.write(pattern(rank, stream.size(), length));
        }
        return stream.toByteArray();
    }

    static long requestedChunkSize(int rank) {
        return 100 + 50L * rank;
    }

    private void writeInParallel(Path name, int ranks, int files) throws Exception {
        ThreadGroupCollectives.run(ranks, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, requestedChunkSize(rank), files,
                    FS_BLOCK_SIZE, SionWriteOptions.defaults().withFsyncOnClose(false))) {
                byte[] stream = streamOf(rank);
                int position = 0;
                for (int record = 0; record < 8; record++) {
                    int length = record == 5 ? 3 * (int) requestedChunkSize(rank) : (rank * 37 + record * 13) % 150;
                    writer.write(ByteBuffer.wrap(stream, position, length));
                    position += length;
                }
                ContiguousPartition ranksToFiles = new ContiguousPartition(ranks, files);
                assertEquals(ranksToFiles.partOf(rank), writer.fileNumber());
                assertEquals(rank - ranksToFiles.first(writer.fileNumber()), writer.localRank());
                assertEquals(ChunkGeometry.alignUp(requestedChunkSize(rank), FS_BLOCK_SIZE), writer.chunkCapacity());
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1} files")
    @MethodSource("rankAndFileCounts")
    void everyRankWritesItsStreamAndReadsItBackOwnTaskAndMapped(int ranks, int files) throws Exception {
        Path name = directory.resolve("par.sion");
        writeInParallel(name, ranks, files);

        assertEquals(files > 1, Files.exists(SionFileNames.physicalFile(name, 1)));
        assertFalse(Files.exists(SionFileNames.physicalFile(name, files)));
        try (SionFile sion = SionFile.open(name)) {
            assertEquals(ranks, sion.taskCount());
            ContiguousPartition ranksToFiles = new ContiguousPartition(ranks, files);
            for (int rank = 0; rank < ranks; rank++) {
                SionTask task = sion.task(rank);
                assertEquals(rank, task.globalRank());
                assertEquals(ranksToFiles.partOf(rank), task.fileNumber());
                assertArrayEquals(streamOf(rank), sion.readFully(rank), "task " + rank);
            }
            for (PhysicalFileMetadata file : sion.physicalFiles()) {
                int fileNumber = file.meta1().fixedPart().fileNumber();
                assertEquals(files, file.meta1().fixedPart().fileCount());
                assertEquals(name.toString(), file.meta1().fixedPart().prefix(), "every file stores the set's name");
                assertEquals(files > 1 && fileNumber == 0, file.mappingSize().isPresent(),
                        "parallel writers put a trailer only behind file 0 of a set");
                assertEquals(file.endOfMeta2() + (files > 1 && fileNumber == 0 ? 4 + 8L * ranks : 0), file.fileSize());
            }
        }

        List<byte[]> ownReads = ThreadGroupCollectives.run(ranks, collectives -> {
            try (SionParallelReader reader = SionParallelReader.openOwnTask(name, collectives)) {
                assertEquals(1, reader.tasks().size());
                assertEquals(collectives.rank(), reader.tasks().get(0).index());
                return reader.readFully(reader.tasks().get(0));
            }
        });
        for (int rank = 0; rank < ranks; rank++) {
            assertArrayEquals(streamOf(rank), ownReads.get(rank));
        }

        for (int readers : new int[] {1, 2, 3}) {
            List<List<Integer>> mapped = ThreadGroupCollectives.run(readers, collectives -> {
                try (SionParallelReader reader = SionParallelReader.openMapped(name, collectives)) {
                    List<Integer> indices = new ArrayList<>();
                    for (SionTask task : reader.tasks()) {
                        assertArrayEquals(streamOf(task.index()), reader.readFully(task));
                        indices.add(task.index());
                    }
                    return indices;
                }
            });
            ContiguousPartition tasksToReaders = new ContiguousPartition(ranks, readers);
            for (int reader = 0; reader < readers; reader++) {
                List<Integer> expected = new ArrayList<>();
                for (int t = 0; t < tasksToReaders.count(reader); t++) {
                    expected.add(tasksToReaders.first(reader) + t);
                }
                assertEquals(expected, mapped.get(reader), readers + " readers, reader " + reader);
            }
        }
    }

    @Test
    void mappedReadDealsContiguousBlocksWithTheRemainderToTheLastRank() {
        ContiguousPartition fiveOverTwo = new ContiguousPartition(5, 2);
        assertEquals(List.of(0, 0, 1, 1, 1), List.of(fiveOverTwo.partOf(0), fiveOverTwo.partOf(1),
                fiveOverTwo.partOf(2), fiveOverTwo.partOf(3), fiveOverTwo.partOf(4)));
        assertEquals(3, fiveOverTwo.count(1));
        ContiguousPartition eightOverThree = new ContiguousPartition(8, 3);
        assertEquals(List.of(2, 2, 4), List.of(eightOverThree.count(0), eightOverThree.count(1), eightOverThree.count(2)));
        ContiguousPartition twoOverThree = new ContiguousPartition(2, 3);
        assertEquals(List.of(1, 1, 0), List.of(twoOverThree.count(0), twoOverThree.count(1), twoOverThree.count(2)));
    }

    @Test
    void closeGathersAllFillLevelsOnceWhateverTheNumberOfChunks() throws Exception {
        int[] gathersAtClose = new int[2];
        int[] chunksWritten = {1, 40};
        for (int run = 0; run < 2; run++) {
            int chunks = chunksWritten[run];
            ThreadGroupCollectives.Board board = new ThreadGroupCollectives.Board(3);
            int index = run;
            ThreadGroupCollectives.run(board, 3, collectives -> {
                SionParallelWriter writer = SionParallelWriter.open(directory.resolve("gathers" + index + ".sion"),
                        collectives, FS_BLOCK_SIZE, 2, FS_BLOCK_SIZE, SionWriteOptions.defaults().withFsyncOnClose(false));
                for (int chunk = 0; chunk < chunks; chunk++) {
                    writer.write(new byte[FS_BLOCK_SIZE]);
                }
                int before = board.gathers.get();
                writer.close();
                if (collectives.rank() == 0) {
                    gathersAtClose[index] = board.gathers.get() - before;
                }
                return null;
            });
            try (SionFile sion = SionFile.open(directory.resolve("gathers" + index + ".sion"))) {
                assertEquals(chunks, sion.task(2).chunkCount());
            }
        }
        assertEquals(gathersAtClose[0], gathersAtClose[1], "gathers at close must not grow with the chunk count");
        assertEquals(2, gathersAtClose[1], "one gather of fill levels, one of the close outcome");
    }

    @Test
    void ownTaskReadWithADifferentRankCountFailsOnEveryRank() throws Exception {
        Path name = directory.resolve("four.sion");
        writeInParallel(name, 4, 1);
        List<Exception> failures = ThreadGroupCollectives.run(3, collectives -> {
            IOException failure = assertThrows(IOException.class, () -> SionParallelReader.openOwnTask(name, collectives));
            return failure;
        });
        assertTrue(failures.get(0) instanceof FormatException);
        assertTrue(failures.get(0).getMessage().contains("written by 4 tasks and cannot be read task-per-rank by 3 ranks"),
                failures.get(0).getMessage());
        assertEquals(FormatException.class, failures.get(2).getClass());
        assertEquals(failures.get(0).getMessage(), failures.get(2).getMessage());
        assertEquals("found by rank 0 while opening the SION file " + name, failures.get(2).getCause().getMessage());
    }

    @Test
    void moreFilesThanRanksFailsOnEveryRank() throws Exception {
        List<Exception> failures = ThreadGroupCollectives.run(2, collectives -> assertThrows(Exception.class,
                () -> SionParallelWriter.open(directory.resolve("x.sion"), collectives, 10, 3, 16,
                        SionWriteOptions.defaults())));
        assertTrue(failures.get(0).getMessage().contains("cannot write 3 files with 2 ranks"));
        assertEquals(failures.get(0).getClass(), failures.get(1).getClass());
        assertEquals(failures.get(0).getMessage(), failures.get(1).getMessage());
        assertTrue(failures.get(1).getCause().getMessage().startsWith("found by rank 0 while planning"),
                failures.get(1).getCause().getMessage());
        assertFalse(Files.exists(directory.resolve("x.sion")));
    }

    @Test
    void ensureFreeSpaceMovesARanksNextWritesToItsNextChunkWhenTheyWouldNotFit() throws Exception {
        Path name = directory.resolve("free.sion");
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                // A record of 28 (rank 0) or 29 (rank 1) bytes written in two pieces, after 100 bytes in a chunk of 128.
                int rank = collectives.rank();
                int record = 28 + rank;
                writer.write(pattern(rank, 0, 100));
                writer.ensureFreeSpace(record);
                writer.write(pattern(rank, 100, 10));
                writer.write(pattern(rank, 110, record - 10));
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name)) {
            assertArrayEquals(new long[] {128}, sion.task(0).bytesPerChunk(), "28 bytes fit the chunk's rest");
            assertArrayEquals(new long[] {100, 29}, sion.task(1).bytesPerChunk(), "the record is whole in one chunk");
            assertArrayEquals(pattern(1, 0, 129), sion.readFully(1));
        }
    }

    @Test
    void defaultAlignmentIsTheFileStoresBlockSizeButAtLeast64KiB() throws Exception {
        Path name = directory.resolve("detect.sion");
        long storeBlockSize = Files.getFileStore(directory).getBlockSize();
        List<Integer> used = ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 10, 1,
                    SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults())) {
                writer.write(new byte[] {1});
                return writer.fsBlockSize();
            }
        });
        int detected = storeBlockSize < 1 || storeBlockSize > 32 << 20
                ? SionParallelWriter.FALLBACK_FS_BLOCK_SIZE : (int) storeBlockSize;
        int expected = Math.max(detected, 64 * 1024);
        assertEquals(List.of(expected, expected), used);
        try (SionFile sion = SionFile.open(name)) {
            assertEquals(expected, sion.physicalFiles().get(0).meta1().fixedPart().fsBlockSize(), "META1 fsblksize");
            assertEquals(expected, sion.task(0).chunkOffset(0), "the data area starts at the alignment");
            assertEquals(expected, sion.task(0).chunkCapacity(), "a 10-byte chunk takes one aligned block");
            assertEquals(2L * expected, sion.task(1).chunkOffset(0));
        }
    }

    @Test
    void keyValueRecordsWrittenInParallelReadBackMapped() throws Exception {
        Path name = directory.resolve("kv.sion");
        ThreadGroupCollectives.run(3, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 40, 1, 32,
                    SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)
                            .withMetadataOrder(ByteOrder.BIG_ENDIAN).withUserDataOrder(ByteOrder.BIG_ENDIAN))) {
                int rank = collectives.rank();
                writer.writeKeyValue(rank, ByteBuffer.wrap(pattern(rank, 0, 50)));
                writer.writeKeyValue(100, ByteBuffer.wrap(pattern(100, 0, 5)));
                writer.writeKeyValue(rank, ByteBuffer.wrap(pattern(rank, 50, 20)));
            }
            return null;
        });
        List<Integer> checked = ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelReader reader = SionParallelReader.openMapped(name, collectives);
                 SionFile sion = SionFile.open(name)) {
                assertEquals(1, reader.fileCount());
                assertEquals(ByteOrder.BIG_ENDIAN, reader.userDataOrder());
                SionTask notMine = sion.task(collectives.rank() == 0 ? 2 : 0);
                assertEquals("task " + notMine.index() + " is not read by this rank", assertThrows(
                        IllegalArgumentException.class, () -> reader.openTaskStream(notMine)).getMessage());
                for (SionTask task : reader.tasks()) {
                    assertEquals(sion.task(task.index()), task, "the handout carries the task as the file has it");
                    assertEquals(sion.task(task.index()).hashCode(), task.hashCode());
                    assertEquals(sion.task(task.index()).toString(), task.toString());
                    assertTrue(task.toString().startsWith("SionTask[index=" + task.index() + ", globalRank="
                            + task.index()), task.toString());
                    SionTask longer = new SionTask(task.index(), task.globalRank(), task.fileNumber(), task.localRank(),
                            task.chunkCapacity(), task.firstChunkOffset(), task.globalSkip(), new long[] {1, 2, 3});
                    assertNotEquals(task, longer);
                    assertEquals(3, reader.keyValueRecords(task).size());
                    assertArrayEquals(pattern(task.index(), 0, 70), reader.readKey(task, task.index()));
                    assertArrayEquals(pattern(100, 0, 5), reader.readKey(task, 100));
                }
                return reader.tasks().size();
            }
        });
        assertEquals(List.of(1, 2), checked);
    }

    /** Every byte goes through the storage opener given: a set written and read in a simulator's memory. */
    @Test
    void writesAndReadsASetThroughItsStorageOpener() throws Exception {
        CrashSimulator memory = new CrashSimulator();
        Path name = Path.of("/simulated/seam.sion");
        ThreadGroupCollectives.run(3, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives,
                    requestedChunkSize(collectives.rank()), 2, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withStorage(memory))) {
                writer.write(streamOf(collectives.rank()));
            }
            try (SionParallelReader reader = SionParallelReader.openOwnTask(name, collectives, memory)) {
                assertArrayEquals(streamOf(collectives.rank()), reader.readFully(reader.tasks().get(0)));
            }
            return null;
        });
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelReader reader = SionParallelReader.openMapped(name, collectives, memory)) {
                for (SionTask task : reader.tasks()) {
                    assertArrayEquals(streamOf(task.index()), reader.readFully(task));
                }
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name, memory)) {
            assertEquals(3, sion.taskCount());
        }
        assertEquals(Set.of(name, SionFileNames.physicalFile(name, 1)), memory.files().keySet(),
                "the journals are gone after close, nothing is on disk");
        assertFalse(Files.exists(name));
    }

    @Test
    void keyValueAccessToAPlainSetIsRefusedOnTheRank() throws Exception {
        Path name = directory.resolve("plain.sion");
        writeInParallel(name, 2, 1);
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelReader reader = SionParallelReader.openOwnTask(name, collectives)) {
                SionTask task = reader.tasks().get(0);
                org.quire.format.UnsupportedFormatException e = assertThrows(
                        org.quire.format.UnsupportedFormatException.class, () -> reader.keyValueRecords(task));
                assertEquals("mode NONE", e.found());
                assertThrows(org.quire.format.UnsupportedFormatException.class, () -> reader.readKey(task, 1));
            }
            return null;
        });
    }

    @Test
    void openReplacesALongerFileAndJournalUnderTheSameName() throws Exception {
        Path name = directory.resolve("reused.sion");
        Path journal = SionFileNames.journal(name);
        Files.write(name, new byte[100_000]);
        Files.write(journal, new byte[100_000]);
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 64, 1, 64,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                collectives.barrier();
                assertEquals(SionJournalLayout.HEADER_SIZE, Files.size(journal), "a fresh journal: its header only");
                collectives.barrier();
                writer.write(pattern(collectives.rank(), 0, 10));
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name)) {
            assertEquals(sion.physicalFiles().get(0).endOfMeta2(), Files.size(name), "nothing of the old file is left");
        }
    }
}
