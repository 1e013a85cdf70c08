package org.quire.format.storage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens the {@link Storage} of a file. The format module's entry points take one, so a test can
 * hand every file a workload touches to the same crash simulator; {@link FileStorage#OPENER}
 * opens real files.
 */
@FunctionalInterface
public interface StorageOpener {

    Storage open(Path path, OpenMode mode) throws IOException;
}
