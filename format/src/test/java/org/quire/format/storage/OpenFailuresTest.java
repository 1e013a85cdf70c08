package org.quire.format.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check that a container path is a regular file, with the file changed around its look at the path
 * (deterministically, through the attribute reader, not by racing a thread).
 */
class OpenFailuresTest {

    @TempDir
    Path directory;

    /** {@code reader}, counting its reads. */
    private static OpenFailures.AttributeReader counting(AtomicInteger reads, OpenFailures.AttributeReader reader) {
        return (path, attributes) -> {
            reads.incrementAndGet();
            return reader.read(path, attributes);
        };
    }

    @Test
    void aFileDeletedBeforeTheLookIsMissingAndTheOpenSaysSo() throws IOException {
        Path file = Files.createFile(directory.resolve("vanishing.sion"));
        AtomicInteger reads = new AtomicInteger();
        OpenFailures.requireRegularFileIfExists(file, counting(reads, (path, attributes) -> {
            Files.delete(path);
            return Files.readAttributes(path, attributes);
        }));
        assertEquals(1, reads.get());
        NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                () -> FileStorage.open(file, OpenMode.READ));
        assertEquals(file + ": cannot open for reading: no such file", missing.getMessage());
    }

    /** One look decides: a file deleted after it is not looked at again and called "a special file". */
    @Test
    void aFileDeletedAfterTheLookIsLookedAtOnce() throws IOException {
        Path file = Files.createFile(directory.resolve("deleted-after.sion"));
        AtomicInteger reads = new AtomicInteger();
        OpenFailures.requireRegularFileIfExists(file, counting(reads, (path, attributes) -> {
            Map<String, Object> read = Files.readAttributes(path, attributes);
            Files.deleteIfExists(path);
            return read;
        }));
        assertEquals(1, reads.get());
    }

    @Test
    void theKindOfAnIrregularFileComesFromTheSameLook() throws IOException {
        AtomicInteger reads = new AtomicInteger();
        NotARegularFileException device = assertThrows(NotARegularFileException.class, () ->
                OpenFailures.requireRegularFileIfExists(Path.of("/dev/full"),
                        counting(reads, OpenFailures.AttributeReader.FILES)));
        assertEquals("/dev/full: not a regular file: a character device", device.getMessage());
        assertEquals(1, reads.get());
    }

    /** Without a POSIX view (the reader refuses "unix:"), the basic view still tells a directory. */
    @Test
    void withoutAUnixViewDirectoriesAreStillNamed() {
        NotARegularFileException refused = assertThrows(NotARegularFileException.class, () ->
                OpenFailures.requireRegularFileIfExists(directory, (path, attributes) -> {
                    if (attributes.startsWith("unix:")) {
                        throw new UnsupportedOperationException("no unix view");
                    }
                    return Files.readAttributes(path, attributes);
                }));
        assertEquals(directory + ": not a regular file: a directory", refused.getMessage());
    }
}
