package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.Meta1Layout;
import org.quire.format.sion.SionTestVectors;
import org.quire.launcher.QuireCommand;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** quire sion verify accepts every real SIONlib file and rejects damaged copies, saying where and why. */
class SionVerifyIT {

    private static final String MIXED = "serial_4tasks_mixed.sion";
    /** The mixed vector: 4 tasks, META2 at 65536 holding 4 * 8 * (1 + 3 chunks) bytes, then a 4-byte trailer. */
    private static final int MIXED_TASKS = 4;
    private static final long MIXED_SIZE = 65668;

    @TempDir
    Path directory;

    @Test
    void everyRealFileIsValidWithAndWithoutReadingItsData() throws Exception {
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            long dataBytes = set.tasks().stream().mapToLong(ExpectedSionSet.ExpectedTask::totalBytes).sum();
            String kind = set.files().size() == 1 ? "file" : "set of " + set.files().size() + " files";
            String tasks = set.tasks().size() + (set.tasks().size() == 1 ? " task, " : " tasks, ");
            String records = set.fileName().contains("keyval") ? ", 6 key-value record headers" : "";

            QuireCommand.Result metadata = SionTool.run("verify", set.name().toString());
            SionDumpIT.assertSucceededQuietly(metadata);
            assertEquals(set.name() + ": valid SION " + kind + ", " + tasks + dataBytes + " bytes of data (checked: metadata"
                    + records + ")\n", metadata.stdout());

            QuireCommand.Result data = SionTool.run("verify", "--data", set.name().toString());
            SionDumpIT.assertSucceededQuietly(data);
            assertEquals(set.name() + ": valid SION " + kind + ", " + tasks + dataBytes + " bytes of data (checked: metadata"
                    + records + ", all data read)\n", data.stdout());
        }
    }

    @Test
    void aFileWithoutTheMagicIsNotASionFile() throws Exception {
        Path copy = copyWith(MIXED, 0, new byte[] {'x'});
        assertRejected(copy, "not a SION file: it starts with 78 69 6f 6e (\"xion\"), not the magic 73 69 6f 6e"
                + " (\"sion\")");
    }

    @Test
    void aFileTruncatedInsideMeta2IsRejected() throws Exception {
        Path copy = copyOf(MIXED);
        try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            channel.truncate(65600);
        }
        assertRejected(copy, "corrupt META2 at offset 65600: chunk table expected 8*ntasks*(1+maxchunks) bytes"
                + " (ntasks 4, maxchunks 3) at start_of_varheader 65536, found file of 65600 bytes (truncated)");
    }

    @Test
    void aMeta2PointerBeyondTheEndIsRejected() throws Exception {
        long offset = Meta1Layout.startOfMeta2Offset(MIXED_TASKS);
        Path copy = copyWith(MIXED, offset, littleEndianLong(MIXED_SIZE + 4096));
        assertRejected(copy, "corrupt META1 at offset " + offset + ": start_of_varheader expected 4096.." + MIXED_SIZE
                + " (between the start of the data and the end of the file), found " + (MIXED_SIZE + 4096));
    }

    @Test
    void anEndiannessWordThatIsNotSymmetricIsRejected() throws Exception {
        Path copy = copyWith(MIXED, Meta1Layout.ENDIANNESS_OFFSET, new byte[] {1});
        assertRejected(copy, "corrupt META1 at offset 4: endianness word expected bytes 0 and 3 equal (0 or 1) and"
                + " bytes 1 and 2 equal (0 or 1), e.g. 00 00 00 00 or 01 01 01 01, found 01 00 00 00");
    }

    @Test
    void anEndiannessWordFlippedToBigEndianMakesTheFormatVersionUnreadable() throws Exception {
        Path copy = copyWith(MIXED, Meta1Layout.ENDIANNESS_OFFSET, new byte[] {1, 1, 1, 1});
        // Read big-endian, the stored little-endian 5 is 5 << 24.
        assertRejected(copy, "unsupported META1 fileformat_version at offset 16: found version " + (5 << 24)
                + "; supported: versions 3 to 5");
    }

    @Test
    void aFileWhoseWriterNeverClosedItIsNotClosedAndSaysWhetherItCanBeRecovered() throws Exception {
        long offset = Meta1Layout.startOfMeta2Offset(MIXED_TASKS);
        Path copy = copyWith(MIXED, offset, littleEndianLong(0));
        String message = "not closed: META1 start_of_varheader at offset " + offset
                + " is 0, its writer never wrote META2; there is no recovery journal beside it (written with the journal"
                + " off, or by another writer than Quire's parallel writer), so it cannot be recovered";
        assertRejected(copy, message);
        for (String command : new String[] {"cat", "split"}) {
            QuireCommand.Result result = command.equals("cat") ? SionTool.run(command, "-t", "100", copy.toString())
                    : SionTool.run(command, copy.toString(), directory.resolve("split-").toString());
            assertEquals(1, result.exitCode(), result.toString());
            assertEquals("quire sion " + command + ": " + copy + ": " + message + "\n", result.stderr());
        }
    }

    @Test
    void aKeyValueRecordLongerThanItsStreamIsRejected() throws Exception {
        // Task 0's first record header starts the data area at 4096; its length field follows the key.
        Path copy = copyWith("serial_keyval_inline.sion", 4096 + 8, littleEndianLong(999_999));
        assertRejected(copy, "corrupt key-value record at offset 4104: length of record 0 of task 0 expected 0..5532"
                + " (bytes left in the task stream), found 999999");
    }

    @Test
    void aSetWithoutItsSecondFileIsRejected() throws Exception {
        Path copy = copyOf("par_5tasks_nfiles2.sion");
        assertRejected(copy, "physical file of the SION set is missing", directory.resolve("par_5tasks_nfiles2.sion.000001"));
    }

    @Test
    void aMissingFileIsAUsageError() throws Exception {
        Path missing = directory.resolve("nothing.sion");
        QuireCommand.Result result = SionTool.run("verify", missing.toString());
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire sion verify: " + missing + ": no such file", "see quire sion verify --help"), result.stderr().lines().toList());
    }

    private void assertRejected(Path file, String problem) throws Exception {
        assertRejected(file, problem, file);
    }

    /** verify, with and without --data, exits 1 with one line naming {@code culprit} and the problem. */
    private static void assertRejected(Path file, String problem, Path culprit) throws Exception {
        for (String[] args : new String[][] {{"verify", file.toString()}, {"verify", "--data", file.toString()}}) {
            QuireCommand.Result result = SionTool.run(args);
            assertEquals(1, result.exitCode(), result.toString());
            assertEquals("quire sion verify: " + culprit + ": " + problem + "\n", result.stderr());
            assertEquals("", result.stdout());
        }
    }

    private Path copyOf(String vector) throws Exception {
        Path copy = directory.resolve(vector);
        Files.copy(SionTestVectors.directory().resolve(vector), copy);
        copy.toFile().setWritable(true);
        return copy;
    }

    private Path copyWith(String vector, long offset, byte[] bytes) throws Exception {
        Path copy = copyOf(vector);
        try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
        return copy;
    }

    private static byte[] littleEndianLong(long value) {
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }
}
