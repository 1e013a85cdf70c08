package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.storage.CrashSimulator;

/**
 * The writer record ({@code <name>.qwriter}) of an {@link Hdf5File} writer of a file on disk:
 * written by {@link Hdf5File#create} and {@link Hdf5File#openForWriting} before they return, so
 * {@link Hdf5File#writerStatus} names this process, saying "SWMR writer" once {@link
 * Hdf5File#startSwmrWrite} is done, and removed by {@link Hdf5File#close}; none for a file in a
 * test's simulated storage.
 */
class WriterRecordLifeMutationGapsTest {

    private static final String THIS_WRITER = "writer alive (%s, pid "
            + ProcessHandle.current().pid() + " on " + WriterRecord.THIS_HOST + ", open since ";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aWriterOnDiskKeepsARecordNamingItUntilItCloses(boolean reopened) throws IOException {
        Path path = dir.resolve("recorded.h5");
        if (reopened) {
            Hdf5File.create(path).close();
        }
        try (Hdf5File writer = reopened ? Hdf5File.openForWriting(path) : Hdf5File.create(path)) {
            String summary = Hdf5File.writerStatus(path).summary();
            assertTrue(summary.startsWith(String.format(THIS_WRITER, "writer")), summary);
            writer.startSwmrWrite();
            summary = Hdf5File.writerStatus(path).summary();
            assertTrue(summary.startsWith(String.format(THIS_WRITER, "SWMR writer")), summary);
        }
        assertFalse(Files.exists(WriterRecord.pathOf(path)), "record removed at close");
    }

    @Test
    void aSimulatedFileHasNoRecordOnDisk() throws IOException {
        Path path = dir.resolve("simulated.h5");
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File writer = Hdf5File.create(path, simulator)) {
            writer.root().createGroup("g");
            writer.flush();
            try (var listing = Files.list(dir)) {
                assertEquals(List.of(), listing.toList());
            }
        }
        assertTrue(simulator.files().containsKey(path));
    }
}
