package org.quire.format.storage;

/**
 * What creating a file does when one exists under its name: the one choice both formats offer
 * ({@code SionWriteOptions.withCreateMode}, {@code Hdf5File.create(path, mode)}).
 */
public enum CreateMode {
    /** Refuse ({@link java.nio.file.FileAlreadyExistsException}); the existing file is not touched. */
    FAIL_IF_EXISTS,
    /**
     * Replace it: unless another open file holds a lock on it (a writer, or an HDF5 reader:
     * {@link FileInUseException}, or for an HDF5 file the refusal of a writer naming who holds
     * it; nothing changed), the existing file is removed and a new one created. It is unlinked, never
     * truncated, so a process still reading it keeps reading the old bytes.
     */
    REPLACE
}
