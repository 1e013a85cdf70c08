package org.quire.launcher.sion;

import org.quire.format.sion.TaskStreamChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Copies task streams through one reused buffer, so memory stays bounded whatever the size of a
 * task; reads run across chunk boundaries (the stream channel joins the chunks).
 */
final class TaskStreamCopy {

    /** Large enough that per-call overhead is negligible, small enough for any heap. */
    static final int BUFFER_SIZE = 4 << 20;

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private final Progress progress;

    TaskStreamCopy(Progress progress) {
        this.progress = progress;
    }

    /** Writes the whole of {@code stream} to {@code out}; returns the bytes copied. */
    long copy(TaskStreamChannel stream, WritableByteChannel out) throws IOException {
        long copied = 0;
        int read;
        while ((read = stream.read(buffer.clear())) >= 0) {
            buffer.flip();
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            copied += read;
            progress.advance(read);
        }
        return copied;
    }

    /** Reads the whole of {@code stream}, for verification; returns the bytes read. */
    long readToEnd(TaskStreamChannel stream) throws IOException {
        long read = 0;
        int n;
        while ((n = stream.read(buffer.clear())) >= 0) {
            read += n;
            progress.advance(n);
        }
        return read;
    }
}
