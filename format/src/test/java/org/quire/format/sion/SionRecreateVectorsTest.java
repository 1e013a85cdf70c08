package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quire.format.sion.SionTestVectors.asLong;
import static org.quire.format.sion.SionTestVectors.longs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Re-creates each SIONlib 1.7.6 test vector through Quire's writers with the inputs the
 * description records (task sizes, writes, fsblksize, global ranks, endianness flag, key-value
 * mode) and compares the result with the real file: every metadata field, then every byte.
 * The one field that cannot match is the prefix (the name as passed to open: ours lives in a
 * temporary directory), so the byte comparison skips META1's 1024-byte prefix field and the
 * field comparison expects our name there.
 */
class SionRecreateVectorsTest {

    @TempDir
    Path directory;

    @Test
    void serialFourTasksMixed() throws Exception {
        recreateSerialFromRecordLengths("serial_4tasks_mixed.sion", SionWriteOptions.defaults());
    }

    @Test
    void serialUserDataBigEndianFlag() throws Exception {
        recreateSerialFromRecordLengths("serial_userdata_bigendian_flag.sion",
                SionWriteOptions.defaults().withUserDataOrder(ByteOrder.BIG_ENDIAN));
    }

    @Test
    void serialThreeHundredTasksBlockSize512() throws Exception {
        Map<String, Object> vector = SionTestVectors.vector("serial_300tasks_blk512.sion");
        int taskCount = 300;
        long[] requested = new long[taskCount];
        long[] globalRanks = new long[taskCount];
        for (int t = 0; t < taskCount; t++) {
            requested[t] = 300 + (t % 3) * 200L;
            globalRanks[t] = t;
        }
        Path ours = directory.resolve("serial_300tasks_blk512.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(ours, requested, globalRanks,
                (int) asLong(vector.get("requested_fsblksize")), SionWriteOptions.defaults())) {
            for (int t = 0; t < taskCount; t++) {
                writer.selectTask(t);
                int[] records = t % 50 == 0 ? new int[] {300, 300} : new int[] {(t % 7) * 10};
                writeRecords(writer::write, t, records);
            }
        }
        assertSameAsReal(vector, ours);
        try (SionFile sion = SionFile.open(ours)) {
            long[] lengths = sion.tasks().stream().mapToLong(SionTask::totalBytes).toArray();
            assertArrayEquals(longs(vector.get("task_stream_lengths")), lengths, "the rule reproduces the described sizes");
        }
    }

    @Test
    void serialKeyValueInline() throws Exception {
        Map<String, Object> vector = SionTestVectors.vector("serial_keyval_inline.sion");
        Path ours = directory.resolve("serial_keyval_inline.sion");
        List<?> tasks = (List<?>) vector.get("tasks");
        try (SionSerialWriter writer = SionSerialWriter.create(ours, longs(vector.get("requested_chunksizes")),
                longs(vector.get("globalranks_passed")), (int) asLong(vector.get("requested_fsblksize")),
                SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE))) {
            for (int t = 0; t < tasks.size(); t++) {
                writer.selectTask(t);
                Map<Long, Long> writtenPerKey = new HashMap<>();
                for (Object call : (List<?>) ((Map<?, ?>) tasks.get(t)).get("sion_fwrite_key_calls")) {
                    long key = asLong(((List<?>) call).get(0));
                    int length = (int) asLong(((List<?>) call).get(1));
                    long start = writtenPerKey.getOrDefault(key, 0L);
                    byte[] data = new byte[length];
                    for (int j = 0; j < length; j++) {
                        data[j] = SionTestVectors.keyValuePatternByte(start + j, key, t);
                    }
                    writer.writeKeyValue(key, ByteBuffer.wrap(data));
                    writtenPerKey.put(key, start + length);
                }
            }
        }
        assertSameAsReal(vector, ours);
    }

    @Test
    void defragOutputIsWhatTheSerialWriterProducesWithBlockSizeOne() throws Exception {
        // siondefrag re-writes with the serial API: one chunk per task sized to the task's data.
        Map<String, Object> vector = SionTestVectors.vector("defrag_of_serial_4tasks_mixed_q1.sion");
        long[] lengths = longs(vector.get("task_stream_lengths"));
        Path ours = directory.resolve("defrag_of_serial_4tasks_mixed_q1.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(ours, lengths, longs(vector.get("globalranks_passed")),
                (int) asLong(vector.get("requested_fsblksize")), SionWriteOptions.defaults())) {
            for (int t = 0; t < lengths.length; t++) {
                writer.selectTask(t);
                writeRecords(writer::write, t, new int[] {(int) lengths[t]});
            }
        }
        assertSameAsReal(vector, ours);
    }

    @Test
    void parallelFourTasksMixed() throws Exception {
        recreateParallel("par_4tasks_mixed.sion", 1);
    }

    @Test
    void parallelFiveTasksInTwoFiles() throws Exception {
        recreateParallel("par_5tasks_nfiles2.sion", 2);
    }

    @Test
    void parallelFourTasksMixedRecoveredAfterACrashIsTheRealFile() throws Exception {
        recreateParallelThroughACrash("par_4tasks_mixed.sion", 1);
    }

    @Test
    void parallelFiveTasksInTwoFilesRecoveredAfterACrashIsTheRealFile() throws Exception {
        recreateParallelThroughACrash("par_5tasks_nfiles2.sion", 2);
    }

    @Test
    void parallelFourTasksCollectiveTwoTasksPerCollector() throws Exception {
        // SIONlib wrote it with "collective,collsize=2" and sion_coll_fwrite: unaligned capacities 3000, 5192, ...
        recreateParallel("par_4tasks_collective.sion", 1, SionWriteOptions.defaults().withJournal(false)
                .withCollectiveWrites(2));
    }

    /**
     * SIONlib chose the collectors itself ("collective" without collsize): the files in
     * {@code sionlib/collective-heuristic} (their README gives the program and its arguments). Task t requested
     * {@code base + step * (t mod 4)} bytes and wrote two collective records, half its request and the rest less
     * {@code t mod 3} bytes.
     */
    @ParameterizedTest(name = "{0}: {1} tasks, {2} files, fsblksize {3}")
    @CsvSource({"coll_heuristic_4tasks.sion,4,1,4096,3000,0", "coll_heuristic_8tasks.sion,8,1,4096,500,0",
            "coll_heuristic_16tasks.sion,16,1,512,1000,0", "coll_heuristic_32tasks.sion,32,1,4096,700,0",
            "coll_heuristic_33tasks.sion,33,1,512,300,170", "coll_heuristic_20tasks_nfiles2.sion,20,2,512,1000,0"})
    void collectiveWritesWithSionlibsCollectorCount(String fileName, int tasks, int fileCount, int fsBlockSize,
                                                     long base, long step) throws Exception {
        Path ours = directory.resolve(fileName);
        ThreadGroupCollectives.run(tasks, collectives -> {
            int rank = collectives.rank();
            long requested = base + step * (rank % 4);
            try (SionParallelWriter writer = SionParallelWriter.open(ours, collectives, requested, fileCount,
                    fsBlockSize, SionWriteOptions.defaults().withJournal(false).withCollectiveWrites())) {
                int first = (int) (requested / 2);
                writeRecords(writer::write, rank, new int[] {first, (int) (requested - first - rank % 3)});
            }
            return null;
        });
        Path real = SionTestVectors.directory().resolve("collective-heuristic").resolve(fileName);
        for (int file = 0; file < fileCount; file++) {
            SionTestVectors.assertSameBytesExceptPrefix(SionFileNames.physicalFile(real, file),
                    SionFileNames.physicalFile(ours, file));
        }
    }

    private void recreateSerialFromRecordLengths(String fileName, SionWriteOptions options) throws Exception {
        Map<String, Object> vector = SionTestVectors.vector(fileName);
        Path ours = directory.resolve(fileName);
        List<?> tasks = (List<?>) vector.get("tasks");
        try (SionSerialWriter writer = SionSerialWriter.create(ours, longs(vector.get("requested_chunksizes")),
                longs(vector.get("globalranks_passed")), (int) asLong(vector.get("requested_fsblksize")), options)) {
            for (int t = 0; t < tasks.size(); t++) {
                writer.selectTask(t);
                writeRecords(writer::write, t, recordLengths(tasks.get(t)));
            }
        }
        assertSameAsReal(vector, ours);
    }

    private void recreateParallel(String fileName, int fileCount) throws Exception {
        recreateParallel(fileName, fileCount, SionWriteOptions.defaults());
    }

    private void recreateParallel(String fileName, int fileCount, SionWriteOptions options) throws Exception {
        Map<String, Object> vector = SionTestVectors.vector(fileName);
        Path ours = directory.resolve(fileName);
        long[] requested = longs(vector.get("requested_chunksizes"));
        List<?> tasks = (List<?>) vector.get("tasks");
        ThreadGroupCollectives.run(requested.length, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(ours, collectives, requested[rank], fileCount,
                    (int) asLong(vector.get("requested_fsblksize")), options)) {
                writeRecords(writer::write, rank, recordLengths(tasks.get(rank)));
            }
            return null;
        });
        assertSameAsReal(vector, ours);
    }

    /**
     * Writes the vector in parallel, every rank flushes, and the files as they are then (data and
     * journals, no META2) are what a crash leaves: they replace the closed files, and
     * {@link SionRecovery} must turn them into SIONlib's own file.
     */
    private void recreateParallelThroughACrash(String fileName, int fileCount) throws Exception {
        Map<String, Object> vector = SionTestVectors.vector(fileName);
        Path ours = directory.resolve(fileName);
        Path crash = directory.resolve("crash");
        long[] requested = longs(vector.get("requested_chunksizes"));
        List<?> tasks = (List<?>) vector.get("tasks");
        ThreadGroupCollectives.run(requested.length, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(ours, collectives, requested[rank], fileCount,
                    (int) asLong(vector.get("requested_fsblksize")), SionWriteOptions.defaults())) {
                writeRecords(writer::write, rank, recordLengths(tasks.get(rank)));
                writer.flush();
                collectives.barrier();
                if (rank == 0) {
                    copyPhysicalFilesAndJournals(ours, fileCount, crash);
                }
                collectives.barrier();
            }
            return null;
        });
        copyPhysicalFilesAndJournals(crash.resolve(fileName), fileCount, directory);
        assertThrows(SionNotClosedException.class, () -> SionFile.open(ours));
        SionRecovery.recover(ours);
        assertSameAsReal(vector, ours);
    }

    private static void copyPhysicalFilesAndJournals(Path from, int fileCount, Path toDirectory) throws IOException {
        Files.createDirectories(toDirectory);
        for (int file = 0; file < fileCount; file++) {
            for (Path source : List.of(SionFileNames.physicalFile(from, file),
                    SionFileNames.journal(SionFileNames.physicalFile(from, file)))) {
                Files.copy(source, toDirectory.resolve(source.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private interface RecordSink {
        void write(byte[] record) throws IOException;
    }

    private static void writeRecords(RecordSink sink, int task, int[] lengths) throws IOException {
        long position = 0;
        for (int length : lengths) {
            byte[] record = new byte[length];
            for (int i = 0; i < length; i++) {
                record[i] = SionTestVectors.patternByte(position + i, task);
            }
            sink.write(record);
            position += length;
        }
    }

    private static int[] recordLengths(Object task) {
        return Arrays.stream(longs(((Map<?, ?>) task).get("sion_fwrite_record_lengths"))).mapToInt(l -> (int) l).toArray();
    }

    /** Every physical file of the vector: metadata field by field, then all bytes outside the prefix. */
    @SuppressWarnings("unchecked")
    private static void assertSameAsReal(Map<String, Object> vector, Path oursName) throws IOException {
        List<Map<String, Object>> filesMeta = (List<Map<String, Object>>) vector.get("files_meta");
        for (int fileNumber = 0; fileNumber < filesMeta.size(); fileNumber++) {
            Path ours = SionFileNames.physicalFile(oursName, fileNumber);
            Path real = SionTestVectors.directory().resolve((String) filesMeta.get(fileNumber).get("file"));
            Map<String, Object> expected = new LinkedHashMap<>(filesMeta.get(fileNumber));
            expected.put("prefix", oursName.toString());
            SionInteropReadTest.assertMetadataEquals(expected, SionFile.readPhysicalFile(ours));

            SionTestVectors.assertSameBytesExceptPrefix(real, ours);
        }
    }
}
