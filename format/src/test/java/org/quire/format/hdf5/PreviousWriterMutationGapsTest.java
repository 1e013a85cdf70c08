package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.storage.CrashSimulator;

/**
 * A file a writer left open is refused naming that writer as its record beside the file
 * ({@code <name>.qwriter}) tells: none left, a dead one's, or one that cannot be read; by
 * each way of opening that finds the writer's mark (a plain reader and an SWMR reader of flags
 * 0x01, a writer of flags 0x01, a reader and a writer of a version 0 file carrying Quire's
 * writing guard).
 */
class PreviousWriterMutationGapsTest {

    private static final String NO_RECORD = "no Quire writer holds it or left a record: its "
            + "writer died, or is not a Quire writer (libhdf5's takes no Quire lock)";

    @TempDir
    Path dir;

    /** A version 3 file a writer left with flags 0x01 (set by hand, checksum recomputed). */
    private Path flaggedFile() throws IOException {
        Path path = dir.resolve("left.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createGroup("g");
        }
        byte[] bytes = Files.readAllBytes(path);
        bytes[11] = SuperblockV3.FLAG_OPEN_FOR_WRITE;
        int checksum = JenkinsLookup3.checksum(bytes, 0, SuperblockV3.SIZE - 4);
        for (int i = 0; i < 4; i++) {
            bytes[SuperblockV3.SIZE - 4 + i] = (byte) (checksum >>> (8 * i));
        }
        Files.write(path, bytes);
        return path;
    }

    /** A version 0 file (h5py's compat.h5) as a Quire writer killed after a flush leaves it. */
    private Path guardedFile() throws IOException {
        Path name = Path.of("left.h5");
        CrashSimulator simulator = new CrashSimulator(Map.of(name, Files.readAllBytes(
                H5pyFixtures.of(H5pyFixtures.COMPAT).file("compat.h5"))));
        Path path = dir.resolve("left.h5");
        try (Hdf5File file = Hdf5File.openForWriting(name, simulator, WriteOptions.DEFAULT)) {
            file.flush();
            Files.write(path, simulator.files().get(name));
        }
        return path;
    }

    @ParameterizedTest
    @CsvSource({
            "open, none", "open, dead", "open, unreadable",
            "openSwmr, none", "openSwmr, dead", "openSwmr, unreadable",
            "openForWriting, none", "openForWriting, dead", "openForWriting, unreadable",
            "open guarded, none", "open guarded, dead", "open guarded, unreadable",
            "openForWriting guarded, none", "openForWriting guarded, dead",
            "openForWriting guarded, unreadable",
    })
    void aRefusalNamesThePreviousWriterAsItsRecordTells(String opening, String record)
            throws IOException {
        boolean guarded = opening.endsWith(" guarded");
        Path path = guarded ? guardedFile() : flaggedFile();
        Path recordPath = WriterRecord.pathOf(path);
        switch (record) {
            case "dead" -> Files.writeString(recordPath, "quire-writer 1\npid 4242\nhost n1\n"
                    + "mode write\nsince 0\nbeat 7\nbeat-time 0\n");
            case "unreadable" -> Files.writeString(recordPath, "not a record\n");
            default -> { }
        }
        FileOpenForWritingException e = assertThrows(FileOpenForWritingException.class,
                () -> {
                    switch (opening.split(" ")[0]) {
                        case "openSwmr" -> Hdf5File.openSwmr(path).close();
                        case "openForWriting" -> Hdf5File.openForWriting(path).close();
                        default -> Hdf5File.open(path).close();
                    }
                });
        if (guarded) {
            assertTrue(e.situation().startsWith("file is open for writing (superblock 0 end of "
                    + "file address 2^63-1, Quire's writing guard); "), e.situation());
        }
        String previous = e.situation().substring(e.situation().lastIndexOf("; ") + 2);
        switch (record) {
            case "dead" -> assertTrue(previous.startsWith("writer dead (writer, pid 4242 on n1, "
                    + "open since 1970-01-01T00:00:00Z, last beat ")
                    && previous.endsWith(" s ago, its lock released): its last commit is final"),
                    previous);
            case "unreadable" -> assertTrue(previous.startsWith("its writer record cannot be "
                    + "read: " + recordPath + ": "), previous);
            default -> assertEquals(NO_RECORD, previous);
        }
    }
}
