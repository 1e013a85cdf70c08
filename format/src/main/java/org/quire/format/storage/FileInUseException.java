package org.quire.format.storage;

import java.nio.file.FileSystemException;

/**
 * A file was to be replaced ({@link CreateMode#REPLACE}) while a writer has it open: it holds the
 * file's lock. Nothing was changed.
 */
public class FileInUseException extends FileSystemException {

    public FileInUseException(String file) {
        super(file, null, "cannot replace: a writer has it open (it holds the file's lock); nothing was changed");
    }
}
