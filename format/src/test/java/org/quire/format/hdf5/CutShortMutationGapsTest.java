package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * A file cut short under its writer (h5py's {@code 'w'} truncates a file whatever Quire's
 * advisory locks say): a forcing flush, a flush once {@link Hdf5File#CUT_SHORT_CHECK_NANOS}
 * passed since the last look, and the closing flush fail with {@link FileCutShortException}
 * instead of writing their blocks over the hole; the file stays as it was cut.
 */
class CutShortMutationGapsTest {

    private static final Path FILE = Path.of("cut.h5");

    @ParameterizedTest
    @ValueSource(strings = {"forcing flush", "flush after the check period", "close"})
    void aWriterWhoseFileWasCutShortWritesNothingMore(String step) throws Exception {
        CrashSimulator simulator = new CrashSimulator();
        Hdf5File writer = Hdf5File.create(FILE, simulator);
        writer.root().createGroup("g");
        long flushedEnd = writer.blocks().flushedEnd();
        try (Storage other = simulator.open(FILE, OpenMode.READ_WRITE)) {
            other.truncate(0);
        }
        FileCutShortException e = assertThrows(FileCutShortException.class, () -> {
            switch (step) {
                case "forcing flush" -> writer.flush(Durability.EVERY_FLUSH);
                case "flush after the check period" -> {
                    Thread.sleep(Hdf5File.CUT_SHORT_CHECK_NANOS / 1_000_000 + 10);
                    writer.flush(Durability.NONE);
                }
                default -> writer.close();
            }
        });
        assertTrue(e.getMessage().startsWith(FILE + ": the file was cut to 0 bytes while this "
                + "writer had it open"), e.getMessage());
        if (!step.equals("close")) { // the closing flush, refused as well, still releases
            assertThrows(FileCutShortException.class, writer::close);
        }
        assertTrue(e.getMessage().contains("short of the " + flushedEnd + " its last flush "
                + "wrote"), e.getMessage());
        assertEquals(0, simulator.files().get(FILE).length, "nothing written over the hole");
    }
}
