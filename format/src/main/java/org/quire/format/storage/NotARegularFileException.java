package org.quire.format.storage;

import java.nio.file.FileSystemException;

/**
 * A path Quire was asked to read or write as a container names a directory, a device, a pipe or
 * a socket: reading one would see no format (or block), writing one would hand the data to a
 * device ({@code /dev/full}) instead of a file. The reason names what the path is:
 * {@code /dev/full: not a regular file: a character device}.
 */
public class NotARegularFileException extends FileSystemException {

    private final String what;

    /** @param what what the path is instead ("a directory", "a character device") */
    public NotARegularFileException(String file, String what) {
        super(file, null, "not a regular file: " + what);
        this.what = what;
    }

    /** What the path is instead of a regular file. */
    public String what() {
        return what;
    }
}
