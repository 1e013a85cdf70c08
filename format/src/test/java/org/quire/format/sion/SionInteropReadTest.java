package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.sion.SionTestVectors.asLong;
import static org.quire.format.sion.SionTestVectors.longs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Reads every file SIONlib 1.7.6 wrote in the shared test-vector directory and checks every
 * metadata field and every task stream (SHA-256, length, first bytes, data pattern) against
 * {@code sionlib-testvectors.json}.
 */
class SionInteropReadTest {

    @Test
    void everyFileInTheDirectoryIsDescribedAndChecked() throws IOException {
        Set<String> onDisk;
        try (Stream<Path> files = Files.list(SionTestVectors.directory())) {
            onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".sion"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        Set<String> described = new TreeSet<>();
        for (Map<String, Object> vector : SionTestVectors.vectors()) {
            for (Object file : (List<?>) vector.get("files")) {
                described.add((String) file);
            }
        }
        assertEquals(described, onDisk);
        assertTrue(onDisk.size() >= 9, "expected the nine SIONlib files, found " + onDisk);
    }

    @Test
    @SuppressWarnings("unchecked")
    void metadataOfEveryPhysicalFileMatchesTheDescription() throws IOException {
        for (Map<String, Object> vector : SionTestVectors.vectors()) {
            for (Map<String, Object> expected : (List<Map<String, Object>>) vector.get("files_meta")) {
                Path file = SionTestVectors.directory().resolve((String) expected.get("file"));
                PhysicalFileMetadata actual = SionFile.readPhysicalFile(file);
                assertMetadataEquals(expected, actual);
                assertEquals(expected.get("sha256"), sha256(Files.readAllBytes(file)), file + " changed");
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyTaskStreamMatchesItsHashLengthAndPattern() throws IOException {
        for (Map<String, Object> vector : SionTestVectors.vectors()) {
            List<Map<String, Object>> filesMeta = (List<Map<String, Object>>) vector.get("files_meta");
            long[] lengths = longs(vector.get("task_stream_lengths"));
            Path name = SionTestVectors.directory().resolve((String) ((List<?>) vector.get("files")).get(0));
            try (SionFile sion = SionFile.open(name)) {
                assertEquals(lengths.length, sion.taskCount(), name.toString());
                for (SionTask task : sion.tasks()) {
                    Map<String, Object> fileMeta = filesMeta.get(task.fileNumber());
                    byte[] stream = sion.readFully(task.index());
                    String where = name + " task " + task.index();
                    assertEquals(lengths[task.index()], stream.length, where);
                    assertEquals(lengths[task.index()], task.totalBytes(), where);
                    assertEquals(((List<?>) fileMeta.get("task_stream_sha256")).get(task.localRank()), sha256(stream), where);
                    if (fileMeta.containsKey("task_stream_first16_hex")) {
                        String first16 = HexFormat.of().formatHex(stream, 0, Math.min(16, stream.length));
                        assertEquals(((List<?>) fileMeta.get("task_stream_first16_hex")).get(task.localRank()), first16,
                                where);
                    }
                    if (sion.keyValueMode() == KeyValueMode.NONE) {
                        for (int k = 0; k < stream.length; k++) {
                            assertEquals(SionTestVectors.patternByte(k, task.index()), stream[k], where + " byte " + k);
                        }
                    }
                }
            }
        }
    }

    @Test
    void multiFileSetListsTasksInGlobalOrderWithTheirFileAndLocalRank() throws IOException {
        try (SionFile sion = SionFile.open(SionTestVectors.directory().resolve("par_5tasks_nfiles2.sion"))) {
            assertEquals(List.of(0, 0, 1, 1, 1), sion.tasks().stream().map(SionTask::fileNumber).toList());
            assertEquals(List.of(0, 1, 0, 1, 2), sion.tasks().stream().map(SionTask::localRank).toList());
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), sion.tasks().stream().map(SionTask::globalRank).toList());
            SionTask rank4 = sion.task(4);
            assertEquals(2, rank4.chunkCount(), "rank 4 uses two chunks (sion_open_rank would truncate it)");
            assertEquals(16384 + 16384, rank4.chunkOffset(1));
        }
    }

    @Test
    void seekingAcrossChunksReadsTheRightBytes() throws IOException {
        try (SionFile sion = SionFile.open(SionTestVectors.directory().resolve("serial_4tasks_mixed.sion"));
             TaskStreamChannel stream = sion.openTaskStream(0)) {
            assertEquals(9500, stream.size());
            ByteBuffer window = ByteBuffer.allocate(200);
            stream.position(2950);
            assertEquals(200, stream.readFully(window), "a read spanning chunk 0 and 1");
            for (int i = 0; i < 200; i++) {
                assertEquals(SionTestVectors.patternByte(2950 + i, 0), window.get(i));
            }
            assertEquals(4096 + 20480 + 50, stream.fileOffsetOf(3050), "stream byte 3050 is byte 50 of chunk 1");
            stream.position(9499);
            window.clear();
            assertEquals(1, stream.read(window));
            assertEquals(-1, stream.read(window));
            try (var input = sion.openTaskInputStream(3)) {
                assertArrayEquals(sion.readFully(3), input.readAllBytes());
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void keyValueRecordsAndKeyTotalsMatchTheDescription() throws IOException {
        try (SionFile sion = SionFile.open(SionTestVectors.directory().resolve("serial_keyval_inline.sion"))) {
            assertEquals(KeyValueMode.INLINE, sion.keyValueMode());
            List<KeyValueRecord> task0 = sion.keyValueRecords(0);
            assertEquals(List.of(1L, 2L, 1L), task0.stream().map(KeyValueRecord::key).toList());
            assertEquals(List.of(3000L, 2000L, 500L), task0.stream().map(KeyValueRecord::length).toList());
            assertEquals(List.of(16L, 3032L, 5048L), task0.stream().map(KeyValueRecord::dataPosition).toList());
            List<KeyValueRecord> task1 = sion.keyValueRecords(1);
            assertEquals(List.of(7L, 8L, 7L), task1.stream().map(KeyValueRecord::key).toList());
            assertEquals(List.of(10L, 0L, 20L), task1.stream().map(KeyValueRecord::length).toList());
            Map<String, Object> totals = (Map<String, Object>) SionTestVectors.vector("serial_keyval_inline.sion")
                    .get("keyval_totals");
            assertEquals(2, totals.size());
            for (Map.Entry<String, Object> taskTotals : totals.entrySet()) {
                int task = Integer.parseInt(taskTotals.getKey());
                Map<String, Object> perKey = (Map<String, Object>) taskTotals.getValue();
                assertEquals(perKey.keySet(), sion.keyValueRecords(task).stream().map(r -> Long.toString(r.key()))
                        .collect(Collectors.toCollection(TreeSet::new)), "keys of task " + task);
                for (Map.Entry<String, Object> keyTotal : perKey.entrySet()) {
                    long key = Long.parseLong(keyTotal.getKey());
                    byte[] data = sion.readKey(task, key);
                    assertEquals(asLong(keyTotal.getValue()), data.length, "task " + task + " key " + key);
                    for (int j = 0; j < data.length; j++) {
                        assertEquals(SionTestVectors.keyValuePatternByte(j, key, task), data[j]);
                    }
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    static void assertMetadataEquals(Map<String, Object> expected, PhysicalFileMetadata actual) {
        String file = actual.path().toString();
        Meta1 meta1 = actual.meta1();
        Meta1FixedPart fixed = meta1.fixedPart();
        assertEquals(expected.get("endianness_word_hex"),
                HexFormat.of().formatHex(fixed.endianness().toBytes()), file + " endianness word");
        assertEquals(asLong(expected.get("version")), fixed.version(), file + " version");
        assertEquals(asLong(expected.get("version_patchlevel")), fixed.versionPatchlevel(), file + " patchlevel");
        assertEquals(asLong(expected.get("fileformat_version")), fixed.fileFormatVersion(), file + " fileformat_version");
        assertEquals(asLong(expected.get("fsblksize")), fixed.fsBlockSize(), file + " fsblksize");
        assertEquals(asLong(expected.get("ntasks")), fixed.taskCount(), file + " ntasks");
        assertEquals(asLong(expected.get("nfiles")), fixed.fileCount(), file + " nfiles");
        assertEquals(asLong(expected.get("filenumber")), fixed.fileNumber(), file + " filenumber");
        assertEquals(asLong(expected.get("flag1")), fixed.flag1(), file + " flag1");
        assertEquals(asLong(expected.get("flag2")), fixed.flag2(), file + " flag2");
        assertEquals(asLong(expected.get("keyvalmode")), actual.keyValueMode().code(), file + " keyvalmode");
        assertEquals(expected.get("prefix"), fixed.prefix(), file + " prefix");
        assertArrayEquals(longs(expected.get("globalranks")), meta1.globalRanks(), file + " globalranks");
        assertArrayEquals(longs(expected.get("chunksizes")), meta1.chunkCapacities(), file + " chunksizes");
        assertEquals(asLong(expected.get("maxchunks")), meta1.maxChunks(), file + " maxchunks");
        assertEquals(asLong(expected.get("start_of_varheader")), meta1.startOfMeta2(), file + " start_of_varheader");
        assertEquals(asLong(expected.get("meta1_size")), meta1.size(), file + " meta1_size");
        assertEquals(asLong(expected.get("start_of_data")), actual.geometry().startOfData(), file + " start_of_data");
        assertEquals(asLong(expected.get("globalskip")), actual.geometry().globalSkip(), file + " globalskip");
        assertArrayEquals(longs(expected.get("task_start_offsets")), actual.geometry().taskStarts(), file + " starts");
        assertArrayEquals(longs(expected.get("chunks_per_task")), actual.meta2().chunkCounts(), file + " chunks");
        List<Object> bytesPerChunk = (List<Object>) expected.get("bytes_per_chunk");
        for (int task = 0; task < bytesPerChunk.size(); task++) {
            assertArrayEquals(longs(bytesPerChunk.get(task)), actual.meta2().bytesPerChunk()[task],
                    file + " META2 row entries of task " + task + " (unused entries are 0)");
        }
        assertEquals(asLong(expected.get("meta2_end")), actual.endOfMeta2(), file + " meta2_end");
        Object mappingSize = expected.get("mapping_size");
        assertEquals(mappingSize == null ? "none" : String.valueOf(mappingSize),
                actual.mappingSize().isPresent() ? String.valueOf(actual.mappingSize().getAsInt()) : "none",
                file + " mapping_size");
        if (expected.containsKey("mapping")) {
            List<TaskLocation> mapping = ((List<List<Object>>) expected.get("mapping")).stream()
                    .map(pair -> new TaskLocation((int) asLong(pair.get(0)), (int) asLong(pair.get(1)))).toList();
            assertEquals(mapping, actual.mapping(), file + " mapping");
        }
        assertEquals(asLong(expected.get("file_size")), actual.fileSize(), file + " file_size");
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
