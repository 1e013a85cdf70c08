package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.sion.SionSerialWriterTest.pattern;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.StartsOutsideProgram;

/**
 * SIONlib 1.7.6's own tools ({@link SionlibTools}) on every kind of container Quire writes: the
 * parallel writer on 1-8 ranks, sets of several files, key-value mode, big-endian metadata, the
 * serial writer, files closed by {@link SionRecovery} after a crash, files rewritten by
 * {@link SionDefragmenter}, writes kept whole per chunk with {@code ensureFreeSpace}, and collective
 * writes (SIONlib's collective layout with unaligned capacities). For each,
 * {@code siondump -a -l} must list the chunk table Quire wrote, and {@code sionsplit}, {@code sioncat}
 * and {@code siondefrag} (read back by Quire) must give every task stream byte for byte as written.
 *
 * <p>The tools' known defects (their README) are avoided: {@code siondump -k -K} together is never
 * run (a double free on key-value files of several tasks), and no tool here reads through
 * {@code sion_open_rank} (truncated streams when a task has more chunks than task 0): all four open
 * files with {@code sion_open}, and the workloads give later tasks more chunks than task 0 on purpose.
 * One more defect, found here: {@code sionsplit} stops extracting a key at its first empty record
 * and loses the key's later data (its loop ends when {@code sion_fread_key} returns 0), on files
 * SIONlib wrote as well ({@code siondefrag}'s output); key-value workloads therefore write records of
 * at least one byte (docs/sionlib.md, section 6).
 */
@StartsOutsideProgram
class SionlibToolsTest {

    @TempDir
    Path directory;

    /**
     * What a writer put into a container: task t has global rank {@code firstGlobalRank + t} and the stream
     * {@code streams[t]}; for key-value files also each key's data.
     */
    private record Written(Path file, long firstGlobalRank, List<byte[]> streams, List<Map<Long, byte[]>> keyData) {
        boolean keyValue() {
            return keyData != null;
        }
    }

    /** Requested chunk size of a rank: different per rank, so capacities differ. */
    private static long chunkSize(long base, int rank) {
        return base + base / 2 * rank;
    }

    /** Record lengths: varied, every seventh three chunks long (spans chunks), some skip a chunk's rest. */
    private static int recordLength(long base, int rank, int record) {
        return record % 7 == 5 ? 3 * (int) chunkSize(base, rank) : (int) ((rank * 37L + record * 53L) % (base * 3 / 2));
    }

    /** Later ranks write more records, so they use more chunks than rank 0. */
    private static int records(int rank) {
        return 12 + 2 * rank;
    }

    /** One rank's writes: the stream it expects and, in key-value mode, the data per key. */
    private static final class Expected {
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();
        final Map<Long, ByteArrayOutputStream> keys = new TreeMap<>();

        void plain(byte[] data) {
            stream.writeBytes(data);
        }

        void keyValue(long key, byte[] data, ByteOrder order) {
            stream.writeBytes(ByteBuffer.allocate(16).order(order).putLong(key).putLong(data.length).array());
            stream.writeBytes(data);
            keys.computeIfAbsent(key, k -> new ByteArrayOutputStream()).writeBytes(data);
        }

        Map<Long, byte[]> keyData() {
            Map<Long, byte[]> data = new TreeMap<>();
            keys.forEach((key, bytes) -> data.put(key, bytes.toByteArray()));
            return data;
        }
    }

    private static Written written(Path file, long firstGlobalRank, List<Expected> tasks, boolean keyValue) {
        return new Written(file, firstGlobalRank, tasks.stream().map(task -> task.stream.toByteArray()).toList(),
                keyValue ? tasks.stream().map(Expected::keyData).toList() : null);
    }

    /** Writes records {@code from..to-1} of a rank's workload (key-value: keys 1-3, at least one byte each). */
    private static void writeRecords(SionParallelWriter writer, Expected expected, long base, int rank, int from,
                                     int to, SionWriteOptions options) throws IOException {
        for (int record = from; record < to; record++) {
            int length = recordLength(base, rank, record) + (options.keyValueMode() == KeyValueMode.INLINE ? 1 : 0);
            byte[] data = pattern(rank, expected.stream.size(), length);
            if (options.keyValueMode() == KeyValueMode.INLINE) {
                writer.writeKeyValue(record % 3 + 1, ByteBuffer.wrap(data));
                expected.keyValue(record % 3 + 1, data, options.metadataOrder());
            } else {
                writer.write(data);
                expected.plain(data);
            }
        }
    }

    private Written parallel(String name, int ranks, int files, long base, int fsBlockSize, SionWriteOptions options)
            throws Exception {
        Path file = directory.resolve(name);
        List<Expected> tasks = ThreadGroupCollectives.run(ranks, collectives -> {
            int rank = collectives.rank();
            Expected expected = new Expected();
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, chunkSize(base, rank), files,
                    fsBlockSize, options)) {
                writeRecords(writer, expected, base, rank, 0, records(rank), options);
            }
            return expected;
        });
        return written(file, 0, tasks, options.keyValueMode() == KeyValueMode.INLINE);
    }

    /**
     * Collective writes: every rank writes the same number of records (each write is collective), each within
     * its chunk size and some filling it, so that ranks move to later chunks at different records.
     */
    private Written collective(String name, int ranks, int files, int tasksPerCollector) throws Exception {
        Path file = directory.resolve(name);
        long base = 100;
        SionWriteOptions options = SionWriteOptions.defaults().withJournal(false)
                .withCollectiveWrites(tasksPerCollector);
        List<Expected> tasks = ThreadGroupCollectives.run(ranks, collectives -> {
            int rank = collectives.rank();
            Expected expected = new Expected();
            long chunkSize = chunkSize(base, rank);
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, chunkSize, files, 64,
                    options)) {
                for (int record = 0; record < 12; record++) {
                    int length = (int) ((rank * 37L + record * 53L) % (chunkSize + 1));
                    byte[] data = pattern(rank, expected.stream.size(), length);
                    writer.write(data);
                    expected.plain(data);
                }
            }
            return expected;
        });
        return written(file, 0, tasks, false);
    }

    /** Every check of the class comment on one container. */
    private void sionlibReadsWhatWasWritten(Written written) throws IOException {
        List<byte[]> streams = written.streams();
        List<SionlibTools.DumpedTask> dumped = SionlibTools.dump(written.file());
        assertEquals(streams.size(), dumped.size(), "siondump's task count");
        try (SionFile sion = SionFile.open(written.file())) {
            for (int task = 0; task < streams.size(); task++) {
                SionTask quire = sion.task(task);
                SionlibTools.DumpedTask theirs = dumped.get(task);
                String which = written.file().getFileName() + " task " + task;
                assertEquals(task, theirs.index(), which);
                assertEquals(streams.get(task).length, theirs.totalBytes(), which + ": bytes per siondump");
                assertEquals(written.firstGlobalRank() + task, theirs.globalRank(), which + ": global rank");
                assertEquals(quire.chunkCapacity(), theirs.chunkCapacity(), which + ": chunk capacity");
                assertArrayEquals(quire.bytesPerChunk(), theirs.bytesPerChunk(), which + ": fill of every chunk");
                assertArrayEquals(streams.get(task), SionlibTools.cat(written.file(), task), which + ": sioncat -t");
            }
        }
        checkSplit(written);
        checkSiondefrag(written);
    }

    private void checkSplit(Written written) throws IOException {
        Path out = Files.createDirectories(directory.resolve("split-" + written.file().getFileName()));
        SionlibTools.split(written.file(), out.resolve("t_"));
        Map<String, byte[]> expected = new TreeMap<>();
        for (int task = 0; task < written.streams().size(); task++) {
            if (written.keyValue()) {
                for (Map.Entry<Long, byte[]> key : written.keyData().get(task).entrySet()) {
                    expected.put(String.format("t_%05d_%012d", task, key.getKey()), key.getValue());
                }
            } else {
                expected.put(String.format("t_%05d", task), written.streams().get(task));
            }
        }
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(expected.keySet(), files.map(f -> f.getFileName().toString())
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll), "sionsplit's files");
        }
        for (Map.Entry<String, byte[]> file : expected.entrySet()) {
            assertArrayEquals(file.getValue(), Files.readAllBytes(out.resolve(file.getKey())),
                    "sionsplit's " + file.getKey() + " of " + written.file().getFileName());
        }
    }

    /**
     * siondefrag (alignment of the input) rewrites the container; Quire reads every stream of its output, or
     * for a key-value file every key's data (siondefrag writes the record headers in the host's byte order).
     */
    private void checkSiondefrag(Written written) throws IOException {
        Path out = directory.resolve("siondefrag-" + written.file().getFileName());
        SionlibTools.defrag(written.file(), out);
        try (SionFile sion = SionFile.open(out)) {
            assertEquals(written.streams().size(), sion.tasks().size());
            for (int task = 0; task < written.streams().size(); task++) {
                String which = "task " + task + " of siondefrag's rewrite of " + written.file().getFileName();
                if (written.keyValue()) {
                    for (Map.Entry<Long, byte[]> key : written.keyData().get(task).entrySet()) {
                        assertArrayEquals(key.getValue(), sion.readKey(task, key.getKey()), which + ", key " + key.getKey());
                    }
                } else {
                    assertArrayEquals(written.streams().get(task), sion.readFully(task), which);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void parallelWriterOnOneToEightRanks(int ranks) throws Exception {
        sionlibReadsWhatWasWritten(parallel("par" + ranks + ".sion", ranks, 1, 100, 64, SionWriteOptions.defaults()));
    }

    @ParameterizedTest(name = "{0} ranks, {1} files")
    @CsvSource({"5,2", "8,3", "4,4"})
    void parallelWriterIntoSeveralFiles(int ranks, int files) throws Exception {
        sionlibReadsWhatWasWritten(parallel("set" + ranks + "x" + files + ".sion", ranks, files, 100, 64,
                SionWriteOptions.defaults()));
    }

    /**
     * SIONlib's collective mode: unaligned capacities, the collectors write for their groups; -1 tasks per
     * collector is {@link SionWriteOptions#COLLECTORS_BY_SIONLIB_RULE} (SIONlib's own choice).
     */
    @ParameterizedTest(name = "{0} ranks, {1} files, {2} tasks per collector")
    @CsvSource({"1,1,1", "2,1,2", "3,1,1", "5,1,2", "8,1,3", "8,1,8", "5,2,2", "8,3,2", "8,1,-1", "5,2,-1"})
    void collectiveWrites(int ranks, int files, int tasksPerCollector) throws Exception {
        sionlibReadsWhatWasWritten(collective("coll" + ranks + "x" + files + "c" + tasksPerCollector + ".sion", ranks,
                files, tasksPerCollector));
    }

    /** The default alignment: the file store's block size, at least 64 KiB, as META1's fsblksize. */
    @Test
    void parallelWriterWithTheDefaultAlignment() throws Exception {
        Written written = parallel("default-block.sion", 3, 1, 70_000, SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE,
                SionWriteOptions.defaults());
        sionlibReadsWhatWasWritten(written);
        long alignment = Math.max(Files.getFileStore(directory).getBlockSize(), 64 * 1024);
        List<SionlibTools.DumpedTask> dumped = SionlibTools.dump(written.file());
        for (int rank = 0; rank < 3; rank++) {
            long requested = chunkSize(70_000, rank);
            assertEquals((requested + alignment - 1) / alignment * alignment, dumped.get(rank).chunkCapacity(),
                    "siondump's chunk size of task " + rank);
        }
    }

    @ParameterizedTest(name = "{0} ranks, {1} files")
    @CsvSource({"3,1", "4,2"})
    void keyValueContainers(int ranks, int files) throws Exception {
        sionlibReadsWhatWasWritten(parallel("kv" + ranks + "x" + files + ".sion", ranks, files, 100, 64,
                SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)));
    }

    @Test
    void bigEndianMetadataPlainAndKeyValue() throws Exception {
        SionWriteOptions big = SionWriteOptions.defaults().withMetadataOrder(ByteOrder.BIG_ENDIAN);
        sionlibReadsWhatWasWritten(parallel("big.sion", 3, 1, 100, 64, big));
        sionlibReadsWhatWasWritten(parallel("big-kv.sion", 3, 2, 100, 64, big.withKeyValueMode(KeyValueMode.INLINE)));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = KeyValueMode.class, names = {"NONE", "INLINE"})
    void serialWriterWithStoredGlobalRanks(KeyValueMode mode) throws Exception {
        SionWriteOptions options = SionWriteOptions.defaults().withKeyValueMode(mode);
        Path file = directory.resolve("serial.sion");
        List<Expected> tasks = List.of(new Expected(), new Expected(), new Expected(), new Expected());
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {100, 0, 300, 150},
                new long[] {100, 101, 102, 103}, 64, options)) {
            for (int record = 0; record < 16; record++) {
                int task = new int[] {0, 2, 3, 2}[record % 4]; // task 1 has capacity 0 and writes nothing
                writer.selectTask(task);
                int length = recordLength(100, task, record) + (mode == KeyValueMode.INLINE ? 1 : 0);
                byte[] data = pattern(task, tasks.get(task).stream.size(), length);
                if (mode == KeyValueMode.INLINE) {
                    writer.writeKeyValue(record % 2 + 7, ByteBuffer.wrap(data));
                    tasks.get(task).keyValue(record % 2 + 7, data, options.metadataOrder());
                } else {
                    writer.write(data);
                    tasks.get(task).plain(data);
                }
            }
        }
        sionlibReadsWhatWasWritten(written(file, 100, tasks, mode == KeyValueMode.INLINE));
    }

    /**
     * A crash as {@link SionRecoveryTest} takes one: after every rank flushed, rank 0 copies the files and
     * journals away while the ranks wait; the job then goes on and closes. The copies are recovered.
     */
    @ParameterizedTest(name = "key-value {0}")
    @ValueSource(booleans = {false, true})
    void recoveredAfterACrash(boolean keyValue) throws Exception {
        SionWriteOptions options = keyValue ? SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)
                : SionWriteOptions.defaults();
        Path file = directory.resolve("crashing.sion");
        Path crash = directory.resolve("crash");
        List<Expected> flushed = ThreadGroupCollectives.run(5, collectives -> {
            int rank = collectives.rank();
            Expected expected = new Expected();
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, chunkSize(100, rank), 2, 64,
                    options)) {
                writeRecords(writer, expected, 100, rank, 0, records(rank), options);
                writer.flush();
                collectives.barrier();
                if (rank == 0) {
                    SionRecoveryTest.snapshot(file, 2, crash);
                }
                collectives.barrier();
                writeRecords(writer, new Expected(), 100, rank, 0, 3, options); // lost in the crash
            }
            return expected;
        });
        Path recovered = crash.resolve(file.getFileName());
        SionRecovery.recover(recovered);
        sionlibReadsWhatWasWritten(written(recovered, 0, flushed, keyValue));
    }

    @Test
    void defragmentedByQuire() throws Exception {
        Written set = parallel("to-defrag.sion", 5, 2, 100, 64, SionWriteOptions.defaults());
        Path defragmented = directory.resolve("defragmented.sion");
        SionDefragmenter.defragment(set.file(), defragmented, 64, false);
        sionlibReadsWhatWasWritten(new Written(defragmented, 0, set.streams(), null));
    }

    /**
     * Records of an 8-byte header (length, record number) and a body, each preceded by
     * {@code ensureFreeSpace(8 + length)}: SIONlib must see every record whole in one chunk, which is
     * what SIONlib programs reading one record per {@code sion_fread} need.
     */
    @Test
    void ensureFreeSpaceKeepsEveryRecordWholeInOneChunkForSionlib() throws Exception {
        Path file = directory.resolve("records.sion");
        List<Expected> tasks = ThreadGroupCollectives.run(3, collectives -> {
            int rank = collectives.rank();
            Expected expected = new Expected();
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, chunkSize(200, rank), 1, 64,
                    SionWriteOptions.defaults())) {
                for (int record = 0; record < records(rank); record++) {
                    int length = (int) ((rank * 37L + record * 97L) % (writer.chunkCapacity() - 8));
                    byte[] header = ByteBuffer.allocate(8).putInt(length).putInt(record).array();
                    byte[] body = pattern(rank, record, length);
                    writer.ensureFreeSpace(header.length + length);
                    writer.write(header);
                    writer.write(body);
                    expected.plain(header);
                    expected.plain(body);
                }
            }
            return expected;
        });
        Written written = written(file, 0, tasks, false);
        sionlibReadsWhatWasWritten(written);
        List<SionlibTools.DumpedTask> dumped = SionlibTools.dump(file);
        for (int task = 0; task < tasks.size(); task++) {
            int next = 0;
            for (int chunk = 0; chunk < dumped.get(task).bytesPerChunk().length; chunk++) {
                ByteBuffer bytes = ByteBuffer.wrap(SionlibTools.cat(file, task, chunk));
                while (bytes.hasRemaining()) {
                    String where = "task " + task + " chunk " + chunk + " record " + next;
                    assertTrue(bytes.remaining() >= 8, where + ": header cut by the chunk's end");
                    int length = bytes.getInt();
                    assertEquals(next, bytes.getInt(), where + ": records in order");
                    assertTrue(bytes.remaining() >= length, where + ": body cut by the chunk's end");
                    byte[] body = new byte[length];
                    bytes.get(body);
                    assertArrayEquals(pattern(task, next++, length), body, where);
                }
            }
            assertEquals(records(task), next, "task " + task + ": every record read chunk by chunk");
            assertTrue(dumped.get(task).bytesPerChunk().length > 1, "the workload needs several chunks");
        }
    }
}
