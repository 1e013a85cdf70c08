package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;

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
        assertEquals(found.getMessage(), crossed.getMessage());
    }

    @Test
    void aNotClosedFileStaysNotClosed() {
        SionNotClosedException crossed = (SionNotClosedException) crossed(new SionNotClosedException(FILE, 1112));
        assertEquals(SionNotClosedException.class, crossed.getClass());
        assertEquals(1112, crossed.offset());
        assertEquals(new SionNotClosedException(FILE, 1112).getMessage(), crossed.getMessage());
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

        UnsupportedFormatException freeText = (UnsupportedFormatException) crossed(
                new UnsupportedFormatException(FILE, "something else"));
        assertNull(freeText.structure());
        assertEquals(UnsupportedFormatException.NO_OFFSET, freeText.offset());
        assertEquals(FILE + ": something else", freeText.getMessage());
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
}
