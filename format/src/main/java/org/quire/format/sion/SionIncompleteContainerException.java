package org.quire.format.sion;

import java.nio.file.Path;
import org.quire.format.FormatException;

/**
 * A collective write of a {@link SionParallelWriter} failed on some rank, so the container can no longer be
 * completed: each rank had counted its record in its chunk before its collector wrote it, and the fill
 * levels would count bytes never written. Every rank knows this after the failed write (its outcome is agreed
 * on), so every later write, {@code ensureFreeSpace} and {@code flush} is refused at once, without
 * communication, and {@code close} writes no metadata. The file then opens as never closed; the job writes the
 * container again. The cause is the failure of the collective write this rank was told about.
 */
public class SionIncompleteContainerException extends FormatException {

    private final long failedWrite;

    /**
     * @param refused     what was refused: "cannot write", "close wrote no metadata", ...
     * @param failedWrite the number of the collective write that failed, counted from 1
     * @param failure     that write's failure as this rank met it
     */
    public SionIncompleteContainerException(Path file, String refused, long failedWrite, Throwable failure) {
        super(file, refused + ": the container is incomplete because collective write " + failedWrite
                + " failed (" + failure.getMessage() + ")", failure);
        this.failedWrite = failedWrite;
    }

    /** The number of the collective write that failed, counted from 1 on every rank. */
    public long failedWrite() {
        return failedWrite;
    }
}
