package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.storage.Storage;
import org.quire.format.storage.OpenMode;

/**
 * The file a writer left open (it died: its superblock flags say "open for writing", its lock
 * is gone): each opener's refusal, whole, as a Java caller reads it ({@code getMessage}: the
 * situation and the call to make) and as a command line user does ({@code commandLineMessage}:
 * the situation and the command to run), naming the writer from the record it left, or saying
 * it left none.
 */
class FileOpenForWritingMutationGapsTest {

    /** No process has this id: Linux allows at most 2^22. */
    private static final long DEAD_PID = 999_999_999L;

    @TempDir
    static Path dir;

    /**
     * The bytes a writer had flushed when it died (in memory, so that no lock and no record is
     * left), written to {@code name}; an SWMR writer's when {@code swmr}; with the stale record
     * of a dead writer beside it when {@code record}.
     */
    private static Path leftOpen(String name, boolean swmr, boolean record) throws IOException {
        MemoryFiles memory = new MemoryFiles();
        Path inMemory = Path.of("dying.h5");
        Path path = dir.resolve(name);
        try (Hdf5File writer = Hdf5File.create(inMemory, memory, WriteOptions.DEFAULT);
             Storage image = memory.open(inMemory, OpenMode.READ)) {
            writer.root().createGroup("g");
            if (swmr) {
                writer.startSwmrWrite();
            } else {
                writer.flush();
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) image.size());
            image.readFully(bytes, 0);
            Files.write(path, bytes.array());
        }
        if (record) {
            new WriterRecord(DEAD_PID, WriterRecord.THIS_HOST, swmr ? WriterRecord.Mode.SWMR
                    : WriterRecord.Mode.WRITE, 1_764_093_662_123L, 9,
                    1_764_093_671_123L).write(path);
        }
        return path;
    }

    private static final String NO_RECORD = "no Quire writer holds it or left a record: its "
            + "writer died, or is not a Quire writer (libhdf5's takes no Quire lock)";

    private static String dead(String mode) {
        return "writer dead (" + mode + ", pid " + DEAD_PID + " on " + WriterRecord.THIS_HOST
                + ", open since 2025-11-25T18:01:02.123Z, last beat _ s ago, its lock "
                + "released): its last commit is final";
    }

    /** The heartbeat's age changes while a test runs: every message names it as "_". */
    private static String steady(String message) {
        return message.replaceAll("last beat -?[0-9]+\\.[0-9] s ago", "last beat _ s ago");
    }

    static Stream<Arguments> refusals() throws IOException {
        Path plain = leftOpen("plain.h5", false, true);
        Path swmr = leftOpen("swmr.h5", true, false);
        String clearPlain = "quire h5 clear " + plain + " makes the file consistent";
        String clearSwmr = "quire h5 clear " + swmr + " makes the file consistent";
        return Stream.of(
                Arguments.of("open", plain, (Executable) () -> Hdf5File.open(plain),
                        "file is open for writing (superblock consistency flags 0x01); "
                                + dead("writer"),
                        "when its writer is an SWMR writer, follow it with Hdf5File.openSwmr; "
                                + "when it died, Hdf5File.recover(path) makes the file "
                                + "consistent",
                        "when its writer died, " + clearPlain),
                Arguments.of("openSwmr", plain, (Executable) () -> Hdf5File.openSwmr(plain),
                        "file is open for writing (superblock consistency flags 0x01), not by "
                                + "an SWMR writer, so an SWMR reader cannot follow it; "
                                + dead("writer"),
                        "when its writer died, Hdf5File.recover(path) makes the file "
                                + "consistent",
                        "when its writer died, " + clearPlain),
                Arguments.of("openForWriting", plain,
                        (Executable) () -> Hdf5File.openForWriting(plain),
                        "file is open for writing (superblock consistency flags 0x01); "
                                + dead("writer"),
                        "nothing was changed; once it is gone, Hdf5File.recover(path) makes "
                                + "the file consistent, then open it again",
                        "nothing was changed; once it is gone, " + clearPlain
                                + ", then open it again"),
                Arguments.of("open", swmr, (Executable) () -> Hdf5File.open(swmr),
                        "file is open for writing (superblock consistency flags 0x05); "
                                + NO_RECORD,
                        "when its writer is an SWMR writer, follow it with Hdf5File.openSwmr; "
                                + "when it died, Hdf5File.recover(path) makes the file "
                                + "consistent",
                        "when its writer died, " + clearSwmr));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("refusals")
    void aFileItsWriterLeftOpenIsRefusedNamingThatWriter(String opener, Path path, Executable open,
                                                         String situation, String advice,
                                                         String command) {
        FileOpenForWritingException e = assertThrows(FileOpenForWritingException.class, open);
        assertEquals(situation, steady(e.situation()));
        assertEquals(path + ": " + situation + "; " + advice, steady(e.getMessage()));
        assertEquals(path + ": " + situation + "; " + command, steady(e.commandLineMessage()));
    }

    /** The flags of a dead SWMR writer let an SWMR reader follow what it committed. */
    @Test
    void anSwmrReaderFollowsTheCommitsOfADeadSwmrWriter() throws IOException {
        try (Hdf5File follower = Hdf5File.openSwmr(leftOpen("followed.h5", true, true))) {
            assertEquals(java.util.List.of("g"), follower.root().memberNames());
        }
    }
}
