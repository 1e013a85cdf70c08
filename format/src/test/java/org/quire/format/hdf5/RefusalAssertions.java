package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.function.Executable;

/** Assertions on an operation a file refuses: it must leave the file as it was. */
final class RefusalAssertions {

    private RefusalAssertions() {
    }

    /**
     * Runs {@code refused}, expecting {@code type}; the file's bytes are unchanged and no
     * journal was left beside it.
     */
    static <T extends Throwable> T refusedUnchanged(Path file, Class<T> type, Executable refused)
            throws IOException {
        byte[] before = Files.readAllBytes(file);
        T error = assertThrows(type, refused);
        assertArrayEquals(before, Files.readAllBytes(file), "the file changed");
        assertTrue(Files.notExists(Hdf5File.journalPath(file)), "a journal was left");
        return error;
    }
}
