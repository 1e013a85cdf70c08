package org.quire.format.hdf5;

import java.nio.file.Path;

/**
 * Another writer holds the file's lock: a process (or another open file of this one) has it open
 * for writing now. Nothing was changed; open it when that writer has closed it.
 */
public class FileLockedException extends FileOpenForWritingException {

    public FileLockedException(Path file) {
        super(file, "file is locked by another writer (it has the file open for writing now); "
                + "nothing was changed");
    }

    /**
     * @param holder who holds it (from its writer record: mode, pid, host, since when, last
     *               heartbeat), for the message
     * @param advice what the caller can do
     */
    public FileLockedException(Path file, String holder, String advice) {
        super(file, "file is open for writing, locked by another writer (" + holder + "); "
                + "nothing was changed; " + advice);
    }
}
