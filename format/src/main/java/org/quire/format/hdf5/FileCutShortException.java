package org.quire.format.hdf5;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A writer found its file shorter than its last flush left it: another program truncated it
 * while the writer had it open (libhdf5 does not take Quire's advisory locks: {@code
 * h5py.File(path, 'w')} truncates the file before its own {@code flock} fails). What the file
 * held is gone; the flush (or close) that found it wrote nothing. Thrown by {@link
 * Hdf5File#flush()} and {@link Hdf5File#close()} (which still releases the file).
 */
public class FileCutShortException extends FormatException {

    public FileCutShortException(Path file, long size, long flushedEnd) {
        super(file, "the file was cut to " + size + " bytes while this writer had it open, "
                + "short of the " + flushedEnd + " its last flush wrote (another program "
                + "truncated it: libhdf5, h5py.File(path, 'w') for one, does not take Quire's "
                + "locks); what it held is lost; this flush wrote nothing");
    }
}
