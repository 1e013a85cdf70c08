package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.StorageOpener;
import org.quire.format.storage.TrackingOpener;

/**
 * Contract of {@link SionRepartitionedReader}: a file written by N tasks (in-JVM ranks) read by M
 * ranks, N and M from 1 to 5, each rank getting exactly its balanced range of the concatenation of
 * the old tasks' records, across task, chunk and file boundaries.
 */
class SionRepartitionedReaderTest {

    private static final int HEADER = 12;
    private static final int RECORD = 24;
    private static final int FS_BLOCK_SIZE = 64;

    @TempDir
    Path directory;

    static List<Arguments> oldAndNewRankCounts() {
        List<Arguments> cases = new ArrayList<>();
        for (int oldTasks = 1; oldTasks <= 5; oldTasks++) {
            for (int newRanks = 1; newRanks <= 5; newRanks++) {
                cases.add(Arguments.of(oldTasks, newRanks, oldTasks >= 2 ? 2 : 1));
            }
        }
        return cases;
    }

    /** Records task t writes: uneven, task 2 none, task 4 enough for several chunks. */
    static int recordsOf(int task) {
        return task == 2 ? 0 : 3 + 5 * task;
    }

    static byte[] header(int task) {
        return ByteBuffer.allocate(HEADER).putInt(0x48454144).putInt(task).putInt(recordsOf(task)).array();
    }

    /** Record {@code index} of the whole sequence: its bytes say which it is. */
    static byte[] record(long index) {
        ByteBuffer record = ByteBuffer.allocate(RECORD).putLong(index);
        while (record.hasRemaining()) {
            record.put((byte) (index * 7 + record.position()));
        }
        return record.array();
    }

    private static long firstRecordOf(int task) {
        long first = 0;
        for (int t = 0; t < task; t++) {
            first += recordsOf(t);
        }
        return first;
    }

    private void write(Path name, int tasks, int files) throws Exception {
        ThreadGroupCollectives.run(tasks, collectives -> {
            int task = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, files, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                writer.write(ByteBuffer.wrap(header(task)));
                long first = firstRecordOf(task);
                // Uneven writes: records are cut across writes and chunks.
                ByteArrayOutputStream records = new ByteArrayOutputStream();
                for (int r = 0; r < recordsOf(task); r++) {
                    records.write(record(first + r));
                }
                byte[] bytes = records.toByteArray();
                for (int at = 0; at < bytes.length; at += 37) {
                    writer.write(ByteBuffer.wrap(bytes, at, Math.min(37, bytes.length - at)));
                }
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0} old tasks in {2} files, {1} new ranks")
    @MethodSource("oldAndNewRankCounts")
    void everyNewRankReadsExactlyItsBalancedRangeOfTheConcatenation(int oldTasks, int newRanks, int files)
            throws Exception {
        Path name = directory.resolve("grid.sion");
        write(name, oldTasks, files);
        long total = firstRecordOf(oldTasks);
        List<RecordRange> ranges = ThreadGroupCollectives.run(newRanks, collectives -> {
            try (SionRepartitionedReader in = SionRepartitionedReader.open(name, collectives, HEADER, RECORD)) {
                assertEquals(oldTasks, in.oldTaskCount());
                assertEquals(total, in.totalRecords());
                for (int task = 0; task < oldTasks; task++) {
                    assertArrayEquals(header(task), in.header(task), "header of old task " + task);
                    assertEquals(recordsOf(task), in.recordsOfOldTask(task));
                }
                RecordRange range = in.range();
                ByteBuffer read = ByteBuffer.allocate(Math.toIntExact(range.count() * RECORD));
                in.read(read);
                assertEquals(read.limit(), read.position());
                for (long r = 0; r < range.count(); r++) {
                    byte[] found = Arrays.copyOfRange(read.array(), (int) r * RECORD, (int) (r + 1) * RECORD);
                    assertArrayEquals(record(range.first() + r), found, "record " + (range.first() + r)
                            + " on rank " + collectives.rank());
                }
                return range;
            }
        });
        long next = 0;
        for (int rank = 0; rank < newRanks; rank++) {
            assertEquals(next, ranges.get(rank).first(), "ranges follow each other");
            assertEquals(RecordRange.balanced(total, rank, newRanks), ranges.get(rank));
            next = ranges.get(rank).end();
        }
        assertEquals(total, next, "the ranges cover every record");
    }

    @Test
    void aTaskThatIsNotAHeaderAndWholeRecordsFailsEveryRankNamingIt() throws Exception {
        Path name = directory.resolve("torn.sion");
        ThreadGroupCollectives.run(3, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                writer.write(ByteBuffer.wrap(header(collectives.rank())));
                writer.write(ByteBuffer.allocate(collectives.rank() == 1 ? RECORD + 5 : RECORD));
            }
            return null;
        });
        List<String> failures = ThreadGroupCollectives.run(2, collectives -> {
            FormatException failure = assertThrows(FormatException.class,
                    () -> SionRepartitionedReader.open(name, collectives, HEADER, RECORD));
            return failure.getMessage();
        });
        String expected = name + ": task 1 (global rank 1) holds 41 bytes, expected a header of 12 bytes followed by"
                + " a whole number of records of 24 bytes";
        assertEquals(List.of(expected, expected), failures);
    }

    @Test
    void aKeyValueFileIsRefusedOnEveryRank() throws Exception {
        Path name = directory.resolve("kv.sion");
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false).withKeyValueMode(KeyValueMode.INLINE))) {
                writer.writeKeyValue(1, ByteBuffer.wrap(header(collectives.rank())));
            }
            return null;
        });
        List<String> failures = ThreadGroupCollectives.run(2, collectives -> assertThrows(
                UnsupportedFormatException.class, () -> SionRepartitionedReader.open(name, collectives, 0, 1))
                .getMessage());
        assertEquals(2, failures.size());
        assertEquals(failures.get(0), failures.get(1));
        assertTrue(failures.get(0).startsWith(name + ": unsupported META1 flag1 key-value mode at offset 36: found"
                + " mode INLINE"), failures.get(0));
    }

    @Test
    void aBufferOfAnotherSizeThanTheRangeIsRefused() throws Exception {
        Path name = directory.resolve("grid.sion");
        write(name, 2, 1);
        ThreadGroupCollectives.run(1, collectives -> {
            try (SionRepartitionedReader in = SionRepartitionedReader.open(name, collectives, HEADER, RECORD)) {
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> in.read(ByteBuffer.allocate(RECORD)));
                assertTrue(refused.getMessage().contains("this rank's 11 records take 264"), refused.getMessage());
            }
            return null;
        });
    }

    /** The records' size is the reader's: one old task's 3 records of 24 bytes read as 2 of 36, after the header. */
    @Test
    void recordsOfAnotherSizeThanWrittenFollowTheHeaderAndEveryFileIsClosed() throws Exception {
        Path name = directory.resolve("one.sion");
        write(name, 1, 1);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        for (int r = 0; r < recordsOf(0); r++) {
            written.write(record(r));
        }
        TrackingOpener opener = new TrackingOpener();
        ThreadGroupCollectives.run(1, collectives -> {
            try (SionRepartitionedReader in = SionRepartitionedReader.open(name, collectives, HEADER, 36, opener)) {
                assertEquals(36, in.recordBytes());
                assertEquals(2, in.totalRecords());
                ByteBuffer read = ByteBuffer.allocate(72);
                in.read(read);
                assertArrayEquals(written.toByteArray(), read.array());
            }
            return null;
        });
        assertEquals(List.of(), opener.stillOpen());
    }

    @Test
    void aRankOpensOnlyThePhysicalFilesOfItsOwnRecords() throws Exception {
        Path name = directory.resolve("pair.sion");
        write(name, 2, 2); // task 0's 3 records in file 0, task 1's 8 in file 1
        List<List<Path>> opened = ThreadGroupCollectives.run(11, collectives -> {
            List<Path> paths = new ArrayList<>();
            StorageOpener opener = (path, mode) -> {
                paths.add(path);
                return FileStorage.OPENER.open(path, mode);
            };
            try (SionRepartitionedReader in = SionRepartitionedReader.open(name, collectives, HEADER, RECORD, opener)) {
                assertEquals(1, in.range().count());
            }
            return paths;
        });
        assertEquals(List.of(SionFileNames.physicalFile(name, 0)), opened.get(2), "record 2 is task 0's last");
        assertEquals(List.of(SionFileNames.physicalFile(name, 1)), opened.get(3), "record 3 is task 1's first");
    }

    @Test
    void balancedRangesDifferByAtMostOneAndCoverEverything() {
        for (long total : new long[] {0, 1, 7, 1024, Long.MAX_VALUE / 3}) {
            for (int parts = 1; parts <= 7; parts++) {
                long next = 0;
                for (int part = 0; part < parts; part++) {
                    RecordRange range = RecordRange.balanced(total, part, parts);
                    assertEquals(next, range.first());
                    assertTrue(Math.abs(range.count() - total / parts) <= 1, total + " in " + parts);
                    next = range.end();
                }
                assertEquals(total, next);
            }
        }
    }
}
