package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;
import org.quire.format.storage.NotARegularFileException;
import org.quire.format.storage.StorageIOException;

/** Every kind of failure crosses with its class and fields; the cause names the rank and step. */
class CrossRankFailureTest {

    private static final Path FILE = Path.of("/data/run 7/out.sion");
    private static final String STEP = "opening the SION file " + FILE;

    /** Encodes {@code failure} as found by rank 3 and returns what another rank throws. */
    private static Exception crossed(Throwable failure) {
        byte[] wire = CrossRankFailure.encode(3, failure);
        Exception thrown = assertThrows(Exception.class, () -> CrossRankFailure.rethrow(wire, STEP));
        CrossRankFailure.FoundByRank origin = assertInstanceOf(CrossRankFailure.FoundByRank.class, thrown.getCause());
        assertEquals(3, origin.rank());
        assertEquals("found by rank 3 while " + STEP, origin.getMessage());
        return thrown;
    }

    @Test
    void aCorruptFileKeepsEveryField() {
        CorruptFileException found = new CorruptFileException(FILE, 4, "META1", "endianness word",
                "00 00 00 00 or 01 01 01 01", "01 00 00 00");
        CorruptFileException crossed = (CorruptFileException) crossed(found);
        assertEquals(CorruptFileException.class, crossed.getClass());
        assertEquals(FILE, crossed.file());
        assertEquals(4, crossed.offset());
        assertEquals("META1", crossed.structure());
        assertEquals("endianness word", crossed.field());
        assertEquals("00 00 00 00 or 01 01 01 01", crossed.expected());
        assertEquals("01 00 00 00", crossed.found());
        assertNull(crossed.object());
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aCorruptFileKeepsTheObjectItNames() {
        CorruptFileException found = new CorruptFileException(FILE, 4, "fixed array header", "signature",
                "FAHD", "XXXX").of("/grid");
        CorruptFileException crossed = (CorruptFileException) crossed(found);
        assertEquals(CorruptFileException.class, crossed.getClass());
        assertEquals("/grid", crossed.object());
        assertEquals("fixed array header", crossed.structure());
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aChecksumMismatchKeepsTheObjectItNames() {
        ChecksumMismatchException found = new ChecksumMismatchException(FILE, 44, "fixed array header",
                0xdeadbeef, 0x01020304).of("/grid");
        ChecksumMismatchException crossed = (ChecksumMismatchException) crossed(found);
        assertEquals(ChecksumMismatchException.class, crossed.getClass());
        assertEquals("/grid", crossed.object());
        assertEquals(0xdeadbeef, crossed.stored());
        assertEquals(0x01020304, crossed.computed());
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aChecksumMismatchKeepsStoredAndComputed() {
        ChecksumMismatchException found = new ChecksumMismatchException(FILE, 44, "superblock v2", 0xdeadbeef,
                0x01020304);
        ChecksumMismatchException crossed = (ChecksumMismatchException) crossed(found);
        assertEquals(ChecksumMismatchException.class, crossed.getClass());
        assertEquals(FILE, crossed.file());
        assertEquals(44, crossed.offset());
        assertEquals("superblock v2", crossed.structure());
        assertEquals(0xdeadbeef, crossed.stored());
        assertEquals(0x01020304, crossed.computed());
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aWrongFormatStaysAWrongFormat() {
        WrongFormatException found = new WrongFormatException(FILE, "a SION", "it is empty");
        WrongFormatException crossed = (WrongFormatException) crossed(found);
        assertEquals(WrongFormatException.class, crossed.getClass());
        assertEquals("a SION", crossed.format());
        assertEquals("it is empty", crossed.found());
        assertEquals(FILE + ": not a SION file: it is empty", crossed.getMessage());
    }

    @Test
    void aFailedWriteKeepsFileOperationOffsetAndTheSystemsWords() {
        StorageIOException found = new StorageIOException(FILE, "write of 4096 bytes", 8192,
                new IOException("No space left on device"));
        StorageIOException crossed = (StorageIOException) crossed(found);
        assertEquals(StorageIOException.class, crossed.getClass());
        assertEquals(FILE, crossed.file());
        assertEquals("write of 4096 bytes", crossed.operation());
        assertEquals(8192, crossed.offset());
        assertEquals("No space left on device", crossed.reason());
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aPathThatIsNoRegularFileStaysOne() {
        NotARegularFileException crossed = (NotARegularFileException) crossed(
                new NotARegularFileException("/dev/full", "a character device"));
        assertEquals(NotARegularFileException.class, crossed.getClass());
        assertEquals("a character device", crossed.what());
        assertEquals("/dev/full: not a regular file: a character device", crossed.getMessage());
    }

    @Test
    void aNotClosedFileStaysNotClosed() {
        SionNotClosedException crossed = (SionNotClosedException) crossed(new SionNotClosedException(FILE, 1112,
                SionFileNames.journal(FILE)));
        assertEquals(SionNotClosedException.class, crossed.getClass());
        assertEquals(SionFileNames.journal(FILE), crossed.journal());
        assertEquals(1112, crossed.offset());
        assertEquals(new SionNotClosedException(FILE, 1112, SionFileNames.journal(FILE)).getMessage(),
                crossed.getMessage());
    }

    @Test
    void aRefusedRecoveryKeepsItsReason() {
        SionRecoveryRefusedException crossed = (SionRecoveryRefusedException) crossed(new SionRecoveryRefusedException(
                FILE, SionRecoveryRefusedException.Reason.JOURNAL_MISSING, "no journal beside it"));
        assertEquals(SionRecoveryRefusedException.Reason.JOURNAL_MISSING, crossed.reason());
        assertEquals(FILE + ": no journal beside it", crossed.getMessage());
    }

    @Test
    void anUnsupportedFormatKeepsStructureFoundAndSupported() {
        UnsupportedFormatException crossed = (UnsupportedFormatException) crossed(new UnsupportedFormatException(
                FILE, "META1 fileformat_version", 16, "version 6", "versions 3 to 5"));
        assertEquals(UnsupportedFormatException.class, crossed.getClass());
        assertEquals("META1 fileformat_version", crossed.structure());
        assertEquals(16, crossed.offset());
        assertEquals("version 6", crossed.found());
        assertEquals("versions 3 to 5", crossed.supported());
        assertEquals(FILE + ": unsupported META1 fileformat_version at offset 16: found version 6; supported:"
                + " versions 3 to 5", crossed.getMessage());

        UnsupportedFormatException noOffset = (UnsupportedFormatException) crossed(
                new UnsupportedFormatException(FILE, "file mode", UnsupportedFormatException.NO_OFFSET,
                        "key-value", "plain"));
        assertEquals(UnsupportedFormatException.NO_OFFSET, noOffset.offset());
        assertEquals(FILE + ": unsupported file mode: found key-value; supported: plain", noOffset.getMessage());
    }

    @Test
    void aFormatExceptionKeepsFileAndDetail() {
        FormatException crossed = (FormatException) crossed(new FormatException(FILE, "was written by 4 tasks"));
        assertEquals(FormatException.class, crossed.getClass());
        assertEquals(FILE, crossed.file());
        assertEquals("was written by 4 tasks", crossed.detail());
    }

    @Test
    void fileSystemFailuresKeepTheirClassFileAndReason() {
        Exception missingFile = crossed(new NoSuchFileException(FILE.toString()));
        NoSuchFileException missing = assertInstanceOf(NoSuchFileException.class, missingFile);
        assertEquals(FILE.toString(), missing.getFile());
        assertNull(missing.getReason());
        AccessDeniedException denied = assertInstanceOf(AccessDeniedException.class,
                crossed(new AccessDeniedException(FILE.toString(), null, "read-only")));
        assertEquals("read-only", denied.getReason());
        FileSystemException directory = (FileSystemException) crossed(
                new FileSystemException(FILE.toString(), null, "Is a directory"));
        assertEquals(FileSystemException.class, directory.getClass());
        assertEquals(FILE + ": Is a directory", directory.getMessage());
    }

    @Test
    void argumentAndStateErrorsStayUnchecked() {
        Exception argument = crossed(new IllegalArgumentException("cannot write 3 files with 2 ranks"));
        assertEquals(IllegalArgumentException.class, argument.getClass());
        assertEquals("cannot write 3 files with 2 ranks", argument.getMessage());
        Exception state = crossed(new IllegalStateException("closed"));
        assertEquals(IllegalStateException.class, state.getClass());
        assertEquals("closed", state.getMessage());
    }

    /** A subclass the encoding does not know crosses as its nearest known class, fields intact. */
    @Test
    void anUnknownSubclassCrossesAsItsNearestKnownClass() {
        CorruptFileException subclass = new CorruptFileException(FILE, 8, "superblock", "checksum", "1", "2") {
        };
        CorruptFileException crossed = (CorruptFileException) crossed(subclass);
        assertEquals(CorruptFileException.class, crossed.getClass());
        assertEquals(subclass.getMessage(), crossed.getMessage());
    }

    @Test
    void anyOtherFailureIsAnIOExceptionNamingItsClass() {
        Exception crossed = crossed(new EOFException("short read"));
        assertEquals(IOException.class, crossed.getClass());
        assertEquals("java.io.EOFException: short read", crossed.getMessage());
        Exception error = crossed(new OutOfMemoryError("Java heap space"));
        assertEquals(IOException.class, error.getClass());
        assertEquals("java.lang.OutOfMemoryError: Java heap space", error.getMessage());
    }

    /** A report in wire form with exactly the given rank, tag, field count and fields. */
    private static byte[] report(int rank, String tag, int fieldCount, String... fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(rank);
            writeString(out, tag);
            out.writeInt(fieldCount);
            for (String field : fields) {
                writeString(out, field);
            }
        }
        return bytes.toByteArray();
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** What a rank throws for a damaged or foreign report: one typed error with this message. */
    private static void assertMalformed(byte[] report, String expectedMessage) {
        CrossRankFailure.MalformedReportException thrown = assertThrows(
                CrossRankFailure.MalformedReportException.class, () -> CrossRankFailure.rethrow(report, STEP));
        assertEquals(expectedMessage, thrown.getMessage());
    }

    private static final String PREFIX = "malformed failure report while " + STEP;

    @Test
    void anUnknownTagIsAMalformedReportNamingRankAndTag() throws IOException {
        assertMalformed(report(2, "quota-exceeded", 1, "over quota"),
                PREFIX + " (from rank 2, tag quota-exceeded): unknown tag; known: [sion-not-closed,"
                        + " sion-recovery-refused, checksum-mismatch, corrupt-file, unsupported-format, wrong-format, format,"
                        + " no-such-file, access-denied, file-already-exists, not-a-regular-file, file-system, storage-io,"
                        + " illegal-argument, illegal-state, other]");
    }

    @Test
    void aFieldCountOtherThanTheTagsIsAMalformedReport() throws IOException {
        assertMalformed(report(1, "corrupt-file", 2, FILE.toString(), "4"),
                PREFIX + " (from rank 1, tag corrupt-file): 2 fields, the tag has 7");
        assertMalformed(report(1, "format", 3, FILE.toString(), "x", "y"),
                PREFIX + " (from rank 1, tag format): 3 fields, the tag has 2");
    }

    @Test
    void aFieldItsClassRejectsIsAMalformedReport() throws IOException {
        assertMalformed(report(1, "corrupt-file", 7, FILE.toString(), "four", "META1", "endianness word", "0", "1",
                        null),
                PREFIX + " (from rank 1, tag corrupt-file): fields [" + FILE + ", four, META1, endianness word, 0, 1,"
                        + " null]"
                        + " rejected: java.lang.NumberFormatException: For input string: \"four\"");
        assertMalformed(report(1, "sion-recovery-refused", 3, FILE.toString(), "NO_SUCH_REASON", "d"),
                PREFIX + " (from rank 1, tag sion-recovery-refused): fields [" + FILE + ", NO_SUCH_REASON, d]"
                        + " rejected: java.lang.IllegalArgumentException: No enum constant"
                        + " org.quire.format.sion.SionRecoveryRefusedException.Reason.NO_SUCH_REASON");
    }

    @Test
    void aHeaderCutShortIsAMalformedReport() {
        assertMalformed(new byte[] {0, 0},
                PREFIX + " (from rank unreadable, tag unreadable): cut short at byte 0 of 2: no room for the"
                        + " sending rank");
        assertMalformed(new byte[] {0, 0, 0, 5, 0, 0},
                PREFIX + " (from rank 5, tag unreadable): cut short at byte 4 of 6: no room for the length of"
                        + " the tag");
    }

    /** An older peer that sent its failure as a line of text. */
    @Test
    void aPlainTextReportIsAMalformedReport() {
        byte[] text = "rank 1 failed: corrupt META1".getBytes(StandardCharsets.UTF_8);
        // "rank" read as the rank; " 1 f" as a length far beyond the report.
        assertMalformed(text, PREFIX + " (from rank " + 0x72616e6b + ", tag unreadable): the tag has length "
                + 0x20312066 + " at byte 4, " + (text.length - 8) + " bytes remain");
    }

    /** A last field cut short must not decode as a shorter, normal-looking field. */
    @Test
    void aLastFieldCutShortIsAMalformedReport() throws IOException {
        byte[] whole = CrossRankFailure.encode(3, new CorruptFileException(FILE, 4, "META1", "endianness word",
                "00 00 00 00", "01 00 00 00", "/grid/cube"));
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        assertMalformed(cut, PREFIX + " (from rank 3, tag corrupt-file): the field 6 has length 10 at byte "
                + (whole.length - 14) + ", 7 bytes remain");
    }

    @Test
    void aNegativeLengthOtherThanTheNullMarkerIsAMalformedReport() throws IOException {
        byte[] whole = report(3, "illegal-state", 1, "closed");
        byte[] negative = Arrays.copyOf(whole, whole.length - "closed".length());
        negative[negative.length - 1] = -2;
        negative[negative.length - 2] = -1;
        negative[negative.length - 3] = -1;
        negative[negative.length - 4] = -1;
        assertMalformed(negative, PREFIX + " (from rank 3, tag illegal-state): the field 0 has length -2 at byte "
                + (negative.length - 4) + ", 0 bytes remain");
    }

    @Test
    void trailingBytesAreAMalformedReport() throws IOException {
        byte[] whole = report(3, "illegal-state", 1, "closed");
        byte[] longer = Arrays.copyOf(whole, whole.length + 2);
        assertMalformed(longer, PREFIX + " (from rank 3, tag illegal-state): 2 bytes after the last field");
    }

    @Test
    void aFieldThatIsNotUtf8IsAMalformedReport() throws IOException {
        byte[] whole = report(3, "illegal-state", 1, "closed");
        whole[whole.length - 1] = (byte) 0xff;
        assertMalformed(whole, PREFIX + " (from rank 3, tag illegal-state): the field 0 is not UTF-8");
    }
}
