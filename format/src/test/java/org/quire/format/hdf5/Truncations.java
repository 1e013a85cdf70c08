package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Assertions;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.WrongFormatException;
import org.quire.format.hdf5.layout.Superblock;

/** The truncation check the damaged-file suites share: every cut copy of a valid file is corrupt, quickly. */
final class Truncations {

    /** What a suite does to a cut copy: verify it, read everything in it, ... */
    @FunctionalInterface
    interface FileAction {
        void run(Path file) throws Exception;
    }

    private Truncations() {
    }

    /**
     * Cuts {@code bytes} at {@code cuts} evenly spread lengths from 0 up, writes each copy into
     * {@code directory}, and asserts that each {@code action} fails on it with a
     * {@link CorruptFileException} within 5 seconds (no hang, no unchecked exception).
     */
    static void assertEveryCutIsCorrupt(byte[] bytes, int cuts, Path directory, FileAction... actions)
            throws IOException {
        Path file = directory.resolve("truncated.h5");
        for (int i = 0; i < cuts; i++) {
            int length = (int) ((long) bytes.length * i / cuts);
            Files.write(file, Arrays.copyOf(bytes, length));
            // Cut inside the signature, the file has none: it is not an HDF5 file any more.
            Class<? extends FormatException> expected = length < Superblock.SIGNATURE_LENGTH
                    ? WrongFormatException.class : CorruptFileException.class;
            for (FileAction action : actions) {
                Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                        () -> assertThrows(expected, () -> action.run(file),
                                "cut at " + length + " of " + bytes.length));
            }
        }
    }
}
