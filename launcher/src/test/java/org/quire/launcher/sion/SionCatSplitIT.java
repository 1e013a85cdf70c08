package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.KeyValueRecord;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionSerialWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionTestVectors;
import org.quire.format.sion.SionWriteOptions;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.sion.ExpectedSionSet.ExpectedTask;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** quire sion cat and split on every real SIONlib file: every stream's SHA-256 as the vectors give it. */
class SionCatSplitIT {

    /** A heap far smaller than the big task below: the copy must stream. */
    private static final Map<String, String> SMALL_HEAP = Map.of("QUIRE_JAVA_OPTS", "-Xmx24m");

    @TempDir
    Path directory;

    @Test
    void catWritesEveryTaskStreamOfEveryFile() throws Exception {
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            for (ExpectedTask task : set.tasks()) {
                // 300 tasks are covered by split; cat takes the first, a two-chunk one and the last.
                if (set.tasks().size() > 10 && !List.of(0, 50, set.tasks().size() - 1).contains(task.index())) {
                    continue;
                }
                Path out = directory.resolve(set.fileName() + "." + task.index());
                QuireCommand.Result result = SionTool.runToFile(out, Map.of(), "cat", "-t",
                        Long.toString(task.globalRank()), set.name().toString());
                SionDumpIT.assertSucceededQuietly(result);
                assertEquals(task.streamSha256(), sha256(out), set.fileName() + " task " + task.index());
                assertEquals(task.totalBytes(), Files.size(out));
            }
        }
    }

    @Test
    void splitWritesOneFilePerTaskNamedByGlobalRank() throws Exception {
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            Path prefix = directory.resolve(set.fileName() + "-split").resolve("task_");
            QuireCommand.Result result = SionTool.run("split", set.name().toString(), prefix.toString());
            SionDumpIT.assertSucceededQuietly(result);
            try (var written = Files.list(prefix.getParent())) {
                assertEquals(set.tasks().size(), written.count(), set.fileName());
            }
            for (ExpectedTask task : set.tasks()) {
                Path out = Path.of(prefix + String.format("%05d", task.globalRank()));
                assertEquals(task.streamSha256(), sha256(out), set.fileName() + " task " + task.index());
            }
        }
    }

    /**
     * The third output cannot be written (a directory holds its partial name): the command fails
     * in one line naming it, and neither the two outputs written before nor any partial file stay.
     */
    @Test
    void aSplitThatFailsMidwayLeavesNoOutputBehind() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("serial_4tasks_mixed.sion");
        Path out = Files.createDirectory(directory.resolve("midway"));
        Path blocked = Files.createDirectory(out.resolve("task_00102.partial"));
        QuireCommand.Result result = SionTool.run("split", set.name().toString(), out.resolve("task_").toString());
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals(1, result.stderr().lines().count(), result.toString());
        assertTrue(result.stderr().startsWith("quire sion split: " + blocked), result.toString());
        try (var left = Files.list(out)) {
            assertEquals(List.of(blocked), left.toList(), "only what was there before");
        }
    }

    @Test
    void splitByTaskIndexWithMoreDigitsAsSionsplitNamesThem() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("serial_4tasks_mixed.sion");
        Path prefix = directory.resolve("by-index-");
        SionDumpIT.assertSucceededQuietly(SionTool.run("split", "--task-index", "-d", "7", set.name().toString(),
                prefix.toString()));
        for (ExpectedTask task : set.tasks()) {
            assertEquals(task.streamSha256(), sha256(Path.of(prefix + String.format("%07d", task.index()))));
        }
        assertFalse(Files.exists(Path.of(prefix + "0000100")), "global rank 100 must not name a file");
    }

    @Test
    @SuppressWarnings("unchecked")
    void splitByKeyWritesEachKeysRecordsOfEachTaskAsSionsplitNamesThem() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("serial_keyval_inline.sion");
        Path prefix = directory.resolve("keys").resolve("t_");
        SionDumpIT.assertSucceededQuietly(SionTool.run("split", "--keys", set.name().toString(), prefix.toString()));
        Map<String, Map<String, Object>> totals = (Map<String, Map<String, Object>>) SionTestVectors
                .vector(set.fileName()).get("keyval_totals");
        int files = 0;
        for (ExpectedTask task : set.tasks()) {
            for (Map.Entry<String, Object> key : totals.get(Integer.toString(task.index())).entrySet()) {
                long k = Long.parseLong(key.getKey());
                byte[] data = Files.readAllBytes(Path.of(prefix + String.format("%05d_%012d", task.globalRank(), k)));
                assertEquals(SionTestVectors.asLong(key.getValue()), data.length, "task " + task.index() + " key " + k);
                for (int j = 0; j < data.length; j++) {
                    assertEquals((byte) ((j + 31 * k + 7 * task.index()) % 251), data[j],
                            "task " + task.index() + " key " + k + " byte " + j);
                }
                files++;
            }
        }
        try (var written = Files.list(prefix.getParent())) {
            assertEquals(files, written.count());
        }
        QuireCommand.Result plain = SionTool.run("split", "--keys",
                SionTestVectors.directory().resolve("serial_4tasks_mixed.sion").toString(), prefix.toString());
        assertEquals(2, plain.exitCode(), plain.toString());
        assertTrue(plain.stderr().startsWith("quire sion split: --keys needs a key-value file; "), plain.toString());
    }

    /** keys lists what the reader finds; cat --key writes what SionFile.readKey reads, key by key. */
    @Test
    void keysListsEveryTasksKeysAndCatWritesOneKeysData() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("serial_keyval_inline.sion");
        QuireCommand.Result keys = SionTool.run("keys", set.name().toString());
        SionDumpIT.assertSucceededQuietly(keys);
        List<String> expected = new ArrayList<>(List.of("global_rank key records bytes"));
        try (SionFile sion = SionFile.open(set.name())) {
            for (SionTask task : sion.tasks()) {
                List<KeyValueRecord> records = sion.keyValueRecords(task.index());
                for (long key : records.stream().map(KeyValueRecord::key).distinct().sorted().toList()) {
                    List<KeyValueRecord> withKey = records.stream().filter(r -> r.key() == key).toList();
                    expected.add(task.globalRank() + " " + key + " " + withKey.size() + " "
                            + withKey.stream().mapToLong(KeyValueRecord::length).sum());
                    Path data = directory.resolve("key-" + task.globalRank() + "-" + key);
                    SionDumpIT.assertSucceededQuietly(SionTool.runToFile(data, Map.of(), "cat", "-t",
                            Long.toString(task.globalRank()), "--key", Long.toString(key), set.name().toString()));
                    assertArrayEquals(sion.readKey(task.index(), key), Files.readAllBytes(data),
                            "task " + task.index() + " key " + key);
                }
            }
        }
        assertEquals(expected, keys.stdoutLines());
        assertTrue(expected.size() > 3, "the vector has several tasks and keys: " + expected);

        QuireCommand.Result noKey = SionTool.run("cat", "-t", "0", "--key", "99", set.name().toString());
        assertEquals(List.of("quire sion cat: task with global rank 0 of " + set.name() + " has no record with key 99"
                + " (its keys: 1,2)", "see quire sion cat --help"), noKey.stderr().lines().toList());
        QuireCommand.Result plain = SionTool.run("keys",
                SionTestVectors.directory().resolve("serial_4tasks_mixed.sion").toString());
        assertEquals(2, plain.exitCode(), plain.toString());
        assertTrue(plain.stderr().startsWith("quire sion keys: not a key-value file: "), plain.toString());
    }

    @Test
    void catAndSplitStreamATaskLargerThanTheirHeapAcrossChunks() throws Exception {
        Path file = directory.resolve("big.sion");
        long taskBytes = 96L << 20;
        String expected = writeBigTask(file, taskBytes);

        Path out = directory.resolve("big.0");
        QuireCommand.Result cat = SionTool.runToFile(out, SMALL_HEAP, "cat", "-t", "0", file.toString());
        SionDumpIT.assertSucceededQuietly(cat);
        assertEquals(taskBytes, Files.size(out));
        assertEquals(expected, sha256(out));
        Files.delete(out);

        Path prefix = directory.resolve("big-");
        QuireCommand.Result split = SionTool.run(SMALL_HEAP, "split", file.toString(), prefix.toString());
        SionDumpIT.assertSucceededQuietly(split);
        assertEquals(expected, sha256(Path.of(prefix + "00000")));
        assertEquals(0, Files.size(Path.of(prefix + "00001")));
    }

    @Test
    void catIntoAPipeItsReaderClosesEndsQuietlyWithTheSigpipeStatus() throws Exception {
        Path file = directory.resolve("piped.sion");
        writeBigTask(file, 12L << 20);
        Path stderr = directory.resolve("cat.err");
        Path head = directory.resolve("head.out");
        File devNull = new File("/dev/null");
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(
                new ProcessBuilder(QuireCommand.repositoryRoot().resolve("quire").toString(), "sion", "cat", "-t", "0",
                        file.toString()).redirectInput(devNull).redirectError(stderr.toFile()),
                new ProcessBuilder("head", "-c", "10").redirectOutput(head.toFile())));
        for (Process process : pipeline) {
            assertTrue(process.waitFor(SionTool.LIMIT.toSeconds(), TimeUnit.SECONDS), "pipeline did not end");
        }
        assertEquals(128 + 13, pipeline.get(0).exitValue(), "cat's status after head went away");
        assertEquals("", Files.readString(stderr));
        assertArrayEquals(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Files.readAllBytes(head));
    }

    @Test
    void catOfAnUnknownGlobalRankIsAUsageError() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("serial_4tasks_mixed.sion");
        QuireCommand.Result result = SionTool.run("cat", "-t", "3", set.name().toString());
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire sion cat: no task has global rank 3 in " + set.name()
                + " (its 4 tasks have global ranks 100..103)", "see quire sion cat --help"),
                result.stderr().lines().toList());
        assertEquals("", result.stdout());
    }

    @Test
    void aGlobalRankStoredTwiceIsRefusedByCatAndSplitUnlessFilesAreNumberedByIndex() throws Exception {
        Path file = directory.resolve("same-rank.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {16, 16}, new long[] {5, 5}, 16,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.selectTask(0);
            writer.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            writer.selectTask(1);
            writer.write(ByteBuffer.wrap(new byte[] {4, 5}));
        }
        QuireCommand.Result cat = SionTool.run("cat", "-t", "5", file.toString());
        assertEquals(2, cat.exitCode(), cat.toString());
        assertEquals("quire sion cat: 2 tasks of " + file + " have global rank 5 (a serial writer stored it more"
                + " than once); 'quire sion split --task-index' extracts them",
                cat.stderr().lines().findFirst().orElseThrow());

        Path prefix = directory.resolve("same-");
        QuireCommand.Result split = SionTool.run("split", file.toString(), prefix.toString());
        assertEquals(2, split.exitCode(), split.toString());
        assertEquals("quire sion split: tasks 0 and 1 of " + file + " both have global rank 5; name the files by task index with"
                + " --task-index", split.stderr().lines().findFirst().orElseThrow());

        SionDumpIT.assertSucceededQuietly(SionTool.run("split", "--task-index", file.toString(), prefix.toString()));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(Path.of(prefix + "00000")));
        assertArrayEquals(new byte[] {4, 5}, Files.readAllBytes(Path.of(prefix + "00001")));
    }

    /**
     * Task 0 writes {@code size} bytes of a counting pattern through chunks of 8 MiB; task 1
     * writes nothing. Returns the SHA-256 of task 0's stream.
     */
    private static String writeBigTask(Path file, long size) throws IOException, NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] piece = new byte[3 << 20];
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {8 << 20, 4096}, new long[] {0, 1}, 4096,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.selectTask(0);
            for (long written = 0; written < size; written += piece.length) {
                for (int i = 0; i < piece.length; i++) {
                    piece[i] = (byte) ((written + i) % 251);
                }
                digest.update(piece);
                writer.write(ByteBuffer.wrap(piece));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
