package org.quire.format.sion;

import java.nio.file.Path;
import org.quire.format.CorruptFileException;

/**
 * The file's writer never closed it: META1's {@code start_of_varheader} is still 0, so META2
 * (the fill level of every chunk) was never written and the task streams cannot be delimited
 * (reference section 3.3, item 3). SIONlib refuses such files too. A user can act on this
 * differently from other corruption: the data chunks are intact and may be recoverable.
 */
public class SionNotClosedException extends CorruptFileException {

    public SionNotClosedException(Path file, long offset) {
        super(file, offset, "META1", "start_of_varheader",
                "the offset of META2 (non-zero once the writer closed the file)",
                "0: the file was never closed by its writer");
    }
}
