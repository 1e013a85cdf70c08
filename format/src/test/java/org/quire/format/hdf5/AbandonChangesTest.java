package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.cache.AbandonedChangesException;
import org.quire.format.storage.CrashSimulator;

/**
 * {@link Hdf5File#abandonChanges}: the changes since the last flush are never written, every
 * later flush refuses naming the file, the operation and {@code quire h5 clear}, closing writes
 * nothing, and {@link Hdf5File#recover} returns the file to its last flush.
 */
class AbandonChangesTest {

    private static final Path FILE = Path.of("abandoned.h5");

    @Test
    void abandonedChangesAreNeverWrittenAndRecoverReturnsTheLastFlush() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        Hdf5File file = Hdf5File.create(FILE, simulator);
        file.root().createGroup("kept");
        file.flush();
        file.root().createGroup("dropped");
        IOException cause = new IOException("No space left on device");
        file.abandonChanges("moving things", cause);

        AbandonedChangesException refused = assertThrows(AbandonedChangesException.class, file::flush);
        assertSame(cause, refused.getCause());
        assertEquals(FILE + ": moving things failed part-way (No space left on device); its changes "
                + "since the last flush are abandoned and nothing more is written: close the file, "
                + "then quire h5 clear " + FILE + " (Hdf5File.recover) makes it readable at its last "
                + "flush", refused.getMessage());
        Map<Path, byte[]> before = simulator.files();
        assertSame(refused, assertThrows(AbandonedChangesException.class, file::close));
        Map<Path, byte[]> after = simulator.files();
        for (Path path : new Path[] {FILE, Hdf5File.journalPath(FILE)}) {
            assertArrayEquals(before.get(path), after.get(path), path.toString());
        }

        Hdf5File.recover(FILE, simulator);
        try (Hdf5File read = Hdf5File.open(FILE, simulator)) {
            assertTrue(read.root().contains("kept"));
            assertFalse(read.root().contains("dropped"));
        }
    }
}
