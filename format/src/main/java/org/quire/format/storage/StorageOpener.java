package org.quire.format.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens the {@link Storage} of a file. The format module's entry points take one, so a test can
 * hand every file a workload touches to the same crash simulator; {@link FileStorage#OPENER}
 * opens real files.
 */
@FunctionalInterface
public interface StorageOpener {

    /**
     * Opens {@code path}.
     *
     * @throws java.nio.file.NoSuchFileException      {@link OpenMode#READ} or {@link OpenMode#READ_WRITE} of a missing file
     * @throws java.nio.file.FileAlreadyExistsException {@link OpenMode#CREATE_NEW} of an existing file
     */
    Storage open(Path path, OpenMode mode) throws IOException;

    /**
     * Removes the file {@code path} if it exists (a journal whose file is closed); a simulator
     * records it with the writes. The default removes the real file.
     *
     * @return whether it existed
     */
    default boolean deleteIfExists(Path path) throws IOException {
        return Files.deleteIfExists(path);
    }
}
