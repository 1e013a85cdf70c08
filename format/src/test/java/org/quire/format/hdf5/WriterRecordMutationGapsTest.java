package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.CorruptFileException;

/**
 * The writer record's documented layout, each field read back, how it describes its writer,
 * the staleness limit at its exact edge, and the one-line refusal of each kind of damaged record
 * (which field, what was expected, what was found).
 */
class WriterRecordMutationGapsTest {

    private static final WriterRecord RECORD = new WriterRecord(4242, "node17",
            WriterRecord.Mode.SWMR, 1_764_093_662_123L, 17, 1_764_093_679_123L);
    private static final String LAYOUT = """
            quire-writer 1
            pid 4242
            host node17
            mode swmr
            since 1764093662123
            beat 17
            beat-time 1764093679123
            """;

    @TempDir
    Path dir;

    @Test
    void theRecordIsWrittenAsDocumentedAndReadBackFieldByField() throws IOException {
        Path file = dir.resolve("x.h5");
        assertEquals(LAYOUT, RECORD.encode());
        RECORD.write(file);
        assertEquals(LAYOUT, Files.readString(WriterRecord.pathOf(file)));
        assertEquals(RECORD, WriterRecord.read(file));
        WriterRecord plain = new WriterRecord(7, "n-1.cluster_a", WriterRecord.Mode.WRITE, 1, 2, 3);
        plain.write(file);
        assertEquals(plain, WriterRecord.read(file), "a second version replaces the first");
        assertEquals(java.util.List.of(WriterRecord.pathOf(file)),
                Files.list(dir).toList(), "no temporary record is left");
        WriterRecord.remove(file);
        assertNull(WriterRecord.read(file));
        WriterRecord.remove(file);
    }

    @Test
    void aBeatAndAModeChangeKeepTheWriterAndCountOn() {
        assertEquals(new WriterRecord(4242, "node17", WriterRecord.Mode.SWMR,
                1_764_093_662_123L, 18, 1_764_093_680_000L), RECORD.nextBeat(1_764_093_680_000L));
        assertEquals(new WriterRecord(4242, "node17", WriterRecord.Mode.WRITE,
                1_764_093_662_123L, 18, 1_764_093_680_500L),
                RECORD.inMode(WriterRecord.Mode.WRITE, 1_764_093_680_500L));
        assertEquals(new WriterRecord(ProcessHandle.current().pid(), WriterRecord.THIS_HOST,
                WriterRecord.Mode.WRITE, 5_000, 0, 5_000),
                WriterRecord.ofThisProcess(WriterRecord.Mode.WRITE, 5_000));
    }

    @Test
    void thisHostIsTheKernelsHostName() throws IOException {
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/hostname")).trim(),
                WriterRecord.THIS_HOST);
    }

    @ParameterizedTest
    @CsvSource({
        "400, SWMR writer, 0.4",
        "-1250, SWMR writer, -1.3",
        "61050, SWMR writer, 61.1"})
    void describeNamesModePidHostSinceAndTheBeatsAge(long afterBeat, String mode, String age) {
        assertEquals(mode + ", pid 4242 on node17, open since 2025-11-25T18:01:02.123Z, last beat "
                + age + " s ago", RECORD.describe(RECORD.beatMillis() + afterBeat));
        assertEquals("writer, pid 4242 on node17, open since 2025-11-25T18:01:02.123Z, last "
                + "beat " + age + " s ago", RECORD.inMode(WriterRecord.Mode.WRITE,
                RECORD.beatMillis()).describe(RECORD.beatMillis() + afterBeat));
    }

    /** Three seconds either way is still fresh; a millisecond more is stale. */
    @ParameterizedTest
    @CsvSource({"-3001, true", "-3000, false", "0, false", "3000, false", "3001, true"})
    void aHeartbeatIsStaleOnlyPastThreeSeconds(long afterBeat, boolean stale) {
        assertEquals(stale, RECORD.stale(RECORD.beatMillis() + afterBeat));
    }

    static Stream<Arguments> damaged() {
        String p = "'pid NUMBER', found ";
        return Stream.of(
                Arguments.of(LAYOUT.replace("quire-writer 1", "quire-writer 2"),
                        "first line expected 'quire-writer 1', found 'quire-writer 2'"),
                Arguments.of("", "first line expected 'quire-writer 1', found ''"),
                Arguments.of(LAYOUT.replace("mode swmr", "mode read"), "mode and host lines "
                        + "expected 'mode write' or 'mode swmr' and 'host NAME' (letters, "
                        + "digits, '.', '-', '_'), found other lines"),
                Arguments.of(LAYOUT.replace("host node17\n", ""), "mode and host lines "
                        + "expected 'mode write' or 'mode swmr' and 'host NAME' (letters, "
                        + "digits, '.', '-', '_'), found other lines"),
                Arguments.of(LAYOUT.replace("pid 4242", "pid 42x"), "pid line expected " + p
                        + "'42x'"),
                Arguments.of(LAYOUT.replace("since 1764093662123\n", ""), "since line expected "
                        + "'since NUMBER', found no such line"),
                Arguments.of(LAYOUT.replace("beat 17", "beat "), "beat line expected "
                        + "'beat NUMBER', found ''"),
                Arguments.of(LAYOUT.replace("beat-time 1764093679123", "beat-time"),
                        "beat-time line expected 'beat-time NUMBER', found no such line"));
    }

    @ParameterizedTest
    @MethodSource("damaged")
    void aDamagedRecordIsOneLineNamingTheField(String text, String expected) throws IOException {
        Path file = dir.resolve("x.h5");
        Files.writeString(WriterRecord.pathOf(file), text, StandardCharsets.UTF_8);
        assertEquals(WriterRecord.pathOf(file) + ": corrupt writer record at offset 0: "
                + expected, assertThrows(CorruptFileException.class,
                () -> WriterRecord.read(file)).getMessage());
    }

    /**
     * A record of exactly {@link WriterRecord#MAX_BYTES} bytes (padded with a line that holds
     * no field) is read; one byte more is refused unread, saying its size.
     */
    @Test
    void aRecordOfTheLimitIsReadAndOneByteMoreIsRefused() throws IOException {
        Path file = dir.resolve("x.h5");
        String padded = LAYOUT + "x".repeat(WriterRecord.MAX_BYTES - LAYOUT.length() - 1) + "\n";
        Files.writeString(WriterRecord.pathOf(file), padded, StandardCharsets.UTF_8);
        assertEquals(RECORD, WriterRecord.read(file));
        Files.writeString(WriterRecord.pathOf(file), "x" + padded, StandardCharsets.UTF_8);
        assertEquals(WriterRecord.pathOf(file) + ": corrupt writer record at offset 0: file "
                + "expected a regular file of at most 4096 bytes, found 4097 bytes",
                assertThrows(CorruptFileException.class, () -> WriterRecord.read(file))
                        .getMessage());
    }

    /** A link or a directory where the record belongs is refused, never followed. */
    @Test
    void aLinkOrADirectoryIsNoRecord() throws IOException {
        Path linked = dir.resolve("linked.h5");
        Path target = dir.resolve("elsewhere");
        RECORD.write(target);
        Files.createSymbolicLink(WriterRecord.pathOf(linked), WriterRecord.pathOf(target));
        assertEquals(WriterRecord.pathOf(linked) + ": corrupt writer record at offset 0: file "
                + "expected a regular file of at most 4096 bytes, found a symbolic link",
                assertThrows(CorruptFileException.class, () -> WriterRecord.read(linked))
                        .getMessage());
        Path directory = dir.resolve("directory.h5");
        Files.createDirectory(WriterRecord.pathOf(directory));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> WriterRecord.read(directory));
        assertEquals("file", e.field());
        assertEquals("not a regular file", e.found());
    }
}
