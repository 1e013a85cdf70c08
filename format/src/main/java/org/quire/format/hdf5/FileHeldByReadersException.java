package org.quire.format.hdf5;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A writer was refused because readers (of another process, or other open files of this one)
 * have the file open: writing under a plain reader would show it torn metadata, and a reader
 * open before an SWMR writer switched on SWMR writing could read a structure in between.
 * Nothing was changed; open it for writing when they have closed it.
 */
public class FileHeldByReadersException extends FormatException {

    public FileHeldByReadersException(Path file, String readers) {
        super(file, "file is open for reading by " + readers + "; nothing was changed; open it "
                + "for writing when they have closed it");
    }
}
