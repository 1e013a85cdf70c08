package org.quire.format.storage;

import java.nio.file.FileSystemException;

/**
 * A file was to be replaced ({@link CreateMode#REPLACE}) while another open file holds a lock on
 * it: a writer's, or an HDF5 reader's (an HDF5 file's replacement names which, through {@code
 * FileLockedException} or {@code FileHeldByReadersException}). Nothing was changed.
 */
public class FileInUseException extends FileSystemException {

    public FileInUseException(String file) {
        super(file, null, "cannot replace: another open file holds a lock on it (a writer, or a reader "
                + "of an HDF5 file); nothing was changed");
    }
}
