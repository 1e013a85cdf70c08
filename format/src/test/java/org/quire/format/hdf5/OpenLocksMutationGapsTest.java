package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The open rules of {@link OpenLocks} within one JVM (its lock registry stands in for other
 * processes): each holder against each opener, with the exact refusal a user reads (the file,
 * the holder from its writer record, the advice for a Java caller and for the command line);
 * a writer waiting out a brief shared look but not a reader that stays; a refused or
 * interrupted writer leaving nothing locked.
 */
class OpenLocksMutationGapsTest {

    @TempDir
    Path dir;
    private Path file;
    /** Storages and locks opened by a test, closed after it, last first. */
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @BeforeEach
    void emptyFile() throws IOException {
        file = Files.createFile(dir.resolve("rules.h5"));
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    /** The locks of {@code role}, through a storage of their own, as another open file. */
    private OpenLocks take(OpenLocks.Role role) throws IOException {
        Storage storage = storage(role);
        OpenLocks locks = OpenLocks.take(storage, file, role);
        opened.push(locks);
        return locks;
    }

    private Storage storage(OpenLocks.Role role) throws IOException {
        Storage storage = FileStorage.open(file,
                role == OpenLocks.Role.WRITER ? OpenMode.READ_WRITE : OpenMode.READ);
        opened.push(storage);
        return storage;
    }

    /** The heartbeat's age changes while a test runs: every message names it as "_". */
    private static String steady(String message) {
        return message.replaceAll("last beat -?[0-9]+\\.[0-9] s ago", "last beat _ s ago");
    }

    private static final String RECORDED = "pid 4242 on node17, open since "
            + "2025-11-25T18:01:02.123Z, last beat _ s ago";
    private static final String NO_RECORD = "no writer record rules.h5.qwriter beside it yet: "
            + "a Quire writer that has not written it, or not a Quire writer";
    private static final String WRITER_ADVICE = "open it when that writer has closed it";
    private static final String SWMR_ADVICE = "a writer that has not switched to SWMR writing "
            + "keeps SWMR readers out; open it once it has, or when it has closed the file";
    private static final String SWMR_COMMAND = "a writer that has not switched to SWMR writing "
            + "keeps SWMR readers out; read it once it has, or when it has closed the file";
    private static final String READER_ADVICE = "open it when that writer has closed it, or "
            + "follow an SWMR writer with Hdf5File.openSwmr";
    private static final String READER_COMMAND = "read it when that writer has closed it (an "
            + "SWMR writer's file is read as of its last commit)";

    private static Arguments locked(String holder, OpenLocks.Role role, String named,
                                    String advice, String command) {
        String situation = "file is open for writing, locked by another writer (" + named + ")";
        return Arguments.of(holder, role, "FileLockedException: " + situation
                + "; nothing was changed; " + advice + " | " + situation
                + "; nothing was changed; " + command);
    }

    private static Arguments heldByReaders(String holder, String readers) {
        return Arguments.of(holder, OpenLocks.Role.WRITER, "FileHeldByReadersException: file "
                + "is open for reading by " + readers + "; nothing was changed; open it for "
                + "writing when they have closed it");
    }

    /**
     * Holder (a plain writer with its record, an SWMR writer without one yet, a plain reader,
     * an SWMR reader) against each opener: what it gets.
     */
    static Stream<Arguments> rules() {
        String writer = "writer, " + RECORDED;
        return Stream.of(
                locked("write", OpenLocks.Role.WRITER, writer, WRITER_ADVICE, WRITER_ADVICE),
                locked("write", OpenLocks.Role.READER, writer, READER_ADVICE, READER_COMMAND),
                locked("write", OpenLocks.Role.SWMR_READER, writer, SWMR_ADVICE, SWMR_COMMAND),
                locked("swmr-write", OpenLocks.Role.WRITER, NO_RECORD, WRITER_ADVICE,
                        WRITER_ADVICE),
                locked("swmr-write", OpenLocks.Role.READER, NO_RECORD, READER_ADVICE,
                        READER_COMMAND),
                Arguments.of("swmr-write", OpenLocks.Role.SWMR_READER, "opened"),
                heldByReaders("read", "plain readers (they share its writer byte's lock)"),
                Arguments.of("read", OpenLocks.Role.READER, "opened"),
                Arguments.of("read", OpenLocks.Role.SWMR_READER, "opened"),
                heldByReaders("swmr-read", "SWMR readers (they share its SWMR reader byte's "
                        + "lock)"),
                Arguments.of("swmr-read", OpenLocks.Role.READER, "opened"),
                Arguments.of("swmr-read", OpenLocks.Role.SWMR_READER, "opened"));
    }

    /** Takes the locks of a holder: "write", "swmr-write" (switched), "read", "swmr-read". */
    private void hold(String holder) throws IOException {
        switch (holder) {
            case "write" -> {
                new WriterRecord(4242, "node17", WriterRecord.Mode.WRITE, 1_764_093_662_123L, 17,
                        System.currentTimeMillis()).write(file);
                take(OpenLocks.Role.WRITER);
            }
            case "swmr-write" -> take(OpenLocks.Role.WRITER).enterSwmr();
            case "read" -> take(OpenLocks.Role.READER);
            case "swmr-read" -> take(OpenLocks.Role.SWMR_READER);
            default -> throw new IllegalArgumentException(holder);
        }
    }

    @ParameterizedTest(name = "{0} holds, {1} opens")
    @MethodSource("rules")
    void eachHolderAdmitsOrRefusesEachOpenerSayingWhy(String holder, OpenLocks.Role role,
                                                       String expected) throws Exception {
        hold(holder);
        assertEquals(holder.endsWith("write"), OpenLocks.writerHolds(storage(
                OpenLocks.Role.READER)), "writerHolds with " + holder);
        long start = System.nanoTime();
        String got;
        try {
            take(role);
            got = "opened";
        } catch (FileLockedException e) {
            int after = file.toString().length() + 2;
            got = "FileLockedException: " + steady(e.getMessage().substring(after)) + " | "
                    + steady(e.commandLineMessage().substring(after));
        } catch (FileHeldByReadersException e) {
            got = "FileHeldByReadersException: " + e.getMessage().substring(
                    file.toString().length() + 2);
            assertTrue(System.nanoTime() - start >= OpenLocks.PROBE_PATIENCE_NANOS,
                    "a writer refused by readers waits out a probe's patience first");
        }
        assertEquals(expected, got);
        closeAll();
        take(OpenLocks.Role.WRITER).close(); // the holder and the opener released every lock
    }

    /**
     * A shared look at either byte (a status probe, {@code quire watch}'s brief SWMR look)
     * ending within the patience: the writer waits it out and opens.
     */
    @ParameterizedTest
    @EnumSource(value = OpenLocks.Role.class, names = {"READER", "SWMR_READER"})
    void aWriterWaitsOutABriefSharedLook(OpenLocks.Role look) throws Exception {
        Storage storage = storage(look);
        OpenLocks brief = OpenLocks.take(storage, file, look);
        Thread ends = new Thread(() -> {
            try {
                Thread.sleep(100);
                brief.close();
            } catch (InterruptedException | IOException e) {
                throw new IllegalStateException(e);
            }
        });
        ends.start();
        try {
            take(OpenLocks.Role.WRITER);
        } finally {
            ends.join();
        }
        assertTrue(OpenLocks.writerHolds(storage(OpenLocks.Role.READER)));
    }

    /** A writer refused by SWMR readers lets go of the writer byte: plain readers still open. */
    @Test
    void aWriterRefusedBySwmrReadersLeavesPlainReadersFree() throws Exception {
        take(OpenLocks.Role.SWMR_READER);
        assertThrows(FileHeldByReadersException.class, () -> take(OpenLocks.Role.WRITER));
        assertFalse(OpenLocks.writerHolds(storage(OpenLocks.Role.READER)));
        take(OpenLocks.Role.READER);
    }

    /**
     * A writer interrupted while it waits out a look at the writer byte or the SWMR reader
     * byte: one line, the interrupt kept for its caller, and no byte left locked.
     */
    @ParameterizedTest
    @EnumSource(value = OpenLocks.Role.class, names = {"READER", "SWMR_READER"})
    void anInterruptedWriterSaysSoAndHoldsNothing(OpenLocks.Role look) throws Exception {
        OpenLocks reader = take(look);
        Thread.currentThread().interrupt();
        InterruptedIOException e;
        try {
            e = assertThrows(InterruptedIOException.class, () -> take(OpenLocks.Role.WRITER));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is kept");
        }
        assertEquals("interrupted waiting for a writer byte's lock", e.getMessage());
        assertFalse(OpenLocks.writerHolds(storage(OpenLocks.Role.READER)));
        reader.close();
        take(OpenLocks.Role.WRITER);
    }

    @Test
    void aRefusalNamesWhyTheHoldersRecordCannotBeRead() throws Exception {
        Files.writeString(WriterRecord.pathOf(file), "junk\n");
        take(OpenLocks.Role.WRITER);
        FileLockedException e = assertThrows(FileLockedException.class,
                () -> take(OpenLocks.Role.READER));
        assertEquals("file is open for writing, locked by another writer (its writer record "
                + "cannot be read: " + WriterRecord.pathOf(file) + ": corrupt writer record at "
                + "offset 0: first line expected 'quire-writer 1', found 'junk')", e.situation());
    }
}
