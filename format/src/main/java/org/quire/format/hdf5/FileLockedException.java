package org.quire.format.hdf5;

import java.nio.file.Path;

/**
 * Another writer holds the file's lock: a process (or another open file of this one) has it open
 * for writing now. The message names it from its writer record (docs/swmr.md, "Open rules and
 * locks"). Nothing was changed; open it when that writer has closed it.
 */
public class FileLockedException extends FileOpenForWritingException {

    /**
     * @param holder        who holds it (from its writer record: mode, pid, host, since when,
     *                      last heartbeat), for the message
     * @param advice        what a Java caller can do
     * @param commandAdvice what a command line user can do
     */
    public FileLockedException(Path file, String holder, String advice, String commandAdvice) {
        super(file, "file is open for writing, locked by another writer (" + holder + ")",
                "nothing was changed; " + advice, "nothing was changed; " + commandAdvice);
    }
}
