package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.sion.SionSerialWriterTest.pattern;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.StorageOpener;

/**
 * The parallel writer in SIONlib's collective mode: SIONlib's layout, every record written by the
 * collector of its rank's group (the other ranks write nothing), read back by Quire, and failures
 * agreed across ranks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SionCollectiveWriteTest {

    private static final int FS_BLOCK_SIZE = 512;
    private static final int RECORDS = 9;

    @TempDir
    Path directory;

    /** Uneven chunk sizes, so that groups differ in size. */
    private static long chunkSize(int rank) {
        return 300 + 170L * (rank % 4);
    }

    /** Varied lengths up to the chunk size (some fill it, some are empty), so chunks change at different records. */
    private static int recordLength(int rank, int record) {
        return (int) ((rank * 41L + record * 97L) % (chunkSize(rank) + 1));
    }

    private static SionWriteOptions collective(int tasksPerCollector) {
        return SionWriteOptions.defaults().withJournal(false).withFsyncOnClose(false)
                .withCollectiveWrites(tasksPerCollector);
    }

    /** Counts the bytes a rank writes through its own storage. */
    private static StorageOpener counting(AtomicLong bytes) {
        return (path, mode) -> new ForwardingStorage(FileStorage.OPENER.open(path, mode)) {
            @Override
            public void write(ByteBuffer source, long position) throws IOException {
                bytes.addAndGet(source.remaining());
                super.write(source, position);
            }
        };
    }

    @ParameterizedTest(name = "{0} ranks, {1} files, {2} tasks per collector")
    @CsvSource({"1,1,1", "2,1,1", "2,1,2", "3,1,2", "4,1,1", "5,1,3", "6,2,2", "7,1,4", "8,1,2", "8,1,8", "8,3,3"})
    void everyRecordIsWrittenByItsCollectorAndReadBack(int ranks, int files, int tasksPerCollector) throws Exception {
        Path name = directory.resolve("coll.sion");
        AtomicLong[] bytesWritten = new AtomicLong[ranks];
        List<byte[]> streams = ThreadGroupCollectives.run(ranks, collectives -> {
            int rank = collectives.rank();
            bytesWritten[rank] = new AtomicLong();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, chunkSize(rank), files,
                    FS_BLOCK_SIZE, collective(tasksPerCollector).withStorage(counting(bytesWritten[rank])))) {
                for (int record = 0; record < RECORDS; record++) {
                    byte[] data = pattern(rank, expected.size(), recordLength(rank, record));
                    writer.write(data);
                    expected.writeBytes(data);
                }
            }
            return expected.toByteArray();
        });

        ContiguousPartition ranksToFiles = new ContiguousPartition(ranks, files);
        long[] requested = new long[ranks];
        Arrays.setAll(requested, SionCollectiveWriteTest::chunkSize);
        try (SionFile sion = SionFile.open(name)) {
            for (int file = 0; file < files; file++) {
                int first = ranksToFiles.first(file);
                int count = ranksToFiles.count(file);
                CollectorGroups groups = CollectorGroups.of(Arrays.copyOfRange(requested, first, first + count),
                        FS_BLOCK_SIZE, tasksPerCollector);
                int[] collectors = groups.collectors();
                for (int task = 0; task < count; task++) {
                    int rank = first + task;
                    assertEquals(groups.capacities()[task], sion.task(rank).chunkCapacity(),
                            "capacity of rank " + rank);
                    assertArrayEquals(streams.get(rank), sion.readFully(rank), "stream of rank " + rank);
                    if (collectors[task] != task) {
                        assertEquals(0, bytesWritten[rank].get(), "bytes written by sender rank " + rank);
                    }
                }
            }
            assertTrue(sion.tasks().stream().anyMatch(task -> task.chunkCount() > 1), "some rank uses two chunks");
        }
    }

    @Test
    void aFailingCollectorFailsTheWriteOnEveryRank() throws Exception {
        Path name = directory.resolve("failing.sion");
        List<IOException> failures = ThreadGroupCollectives.run(4, collectives -> {
            SionWriteOptions options = collective(2);
            if (collectives.rank() == 2) {
                options = options.withStorage((path, mode) ->
                        new ForwardingStorage(FileStorage.OPENER.open(path, mode)) {
                            @Override
                            public void write(ByteBuffer source, long position) throws IOException {
                                throw new IOException("disk full at " + position);
                            }
                        });
            }
            SionParallelWriter writer = SionParallelWriter.open(name, collectives, 1000, 1, FS_BLOCK_SIZE, options);
            IOException failure = assertThrows(IOException.class, () -> writer.write(new byte[100]));
            assertRefusedAfterTheFailedWrite(writer, name, failure);
            return failure;
        });
        assertThrows(SionNotClosedException.class, () -> SionFile.open(name));
        // Tasks 2 and 3 form the second group: the first data byte of task 2 is behind tasks 0 and 1.
        long offset = ChunkGeometry.alignUp(Meta1Layout.size(4), FS_BLOCK_SIZE) + 1000 + 1048;
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(IOException.class, failures.get(rank).getClass(), "rank " + rank);
            // Another rank's plain IOException arrives named by class and message (CrossRankFailure).
            assertEquals((rank == 2 ? "" : "java.io.IOException: ") + "disk full at " + offset,
                    failures.get(rank).getMessage(), "rank " + rank);
            if (rank != 2) {
                CrossRankFailure.FoundByRank origin = assertInstanceOf(CrossRankFailure.FoundByRank.class,
                        failures.get(rank).getCause());
                assertEquals(2, origin.rank());
            }
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void aRecordLargerThanTheChunkFailsTheWriteOnEveryRank(int ranks) throws Exception {
        Path name = directory.resolve("large.sion");
        List<RuntimeException> failures = ThreadGroupCollectives.run(ranks, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(name, collectives, 1000, 1, FS_BLOCK_SIZE,
                    collective(3));
            int length = collectives.rank() == 1 ? 5000 : 10;
            RuntimeException failure = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(new byte[length]));
            assertRefusedAfterTheFailedWrite(writer, name, failure);
            return failure;
        });
        assertThrows(SionNotClosedException.class, () -> SionFile.open(name));
        for (RuntimeException failure : failures) {
            assertTrue(failure.getMessage().startsWith("task 1: cannot ensure 5000 bytes"), failure.getMessage());
        }
    }

    /**
     * After a failed collective write every rank refuses every later write, ensureFreeSpace and flush at once (a
     * later write that every rank calls with records that would fit must not reach the collectors), and close
     * fails on every rank and writes no metadata: the reservations counted bytes the collectors did not write
     * (or wrote for some ranks only), which would read back. Each names the file and the failure of write 1.
     */
    private static void assertRefusedAfterTheFailedWrite(SionParallelWriter writer, Path name, Throwable failure) {
        List<Executable> refused = List.of(() -> writer.write(new byte[10]), () -> writer.write(new byte[0]),
                () -> writer.ensureFreeSpace(1), writer::flush, writer::close);
        List<String> operations = List.of("cannot write", "cannot write", "cannot ensure free space", "cannot flush",
                "close wrote no metadata");
        for (int i = 0; i < refused.size(); i++) {
            SionIncompleteContainerException incomplete = assertThrows(SionIncompleteContainerException.class,
                    refused.get(i));
            assertEquals(name + ": " + operations.get(i) + ": the container is incomplete because collective write 1"
                    + " failed (" + failure.getMessage() + ")", incomplete.getMessage());
            assertEquals(name, incomplete.file());
            assertEquals(1, incomplete.failedWrite());
            assertSame(failure, incomplete.getCause());
        }
    }

    @Test
    void theJournalIsRefusedWithCollectiveWrites() throws Exception {
        Path name = directory.resolve("journal.sion");
        List<RuntimeException> failures = ThreadGroupCollectives.run(2, collectives ->
                assertThrows(IllegalArgumentException.class, () -> SionParallelWriter.open(name, collectives, 100, 1,
                        FS_BLOCK_SIZE, SionWriteOptions.defaults().withCollectiveWrites(2))));
        for (RuntimeException failure : failures) {
            assertEquals("collective writes to " + name + " need the recovery journal off"
                    + " (SionWriteOptions.withJournal(false)): a rank's journal cannot vouch for data its collector"
                    + " writes", failure.getMessage());
        }
    }
}
