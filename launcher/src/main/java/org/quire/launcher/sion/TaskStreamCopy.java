package org.quire.launcher.sion;

import org.quire.format.sion.TaskStreamChannel;

import java.io.EOFException;
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

    /** Writes the whole of {@code stream} to {@code out}. */
    void copy(TaskStreamChannel stream, WritableByteChannel out) throws IOException {
        copy(stream, 0, stream.size(), out);
    }

    /** Writes {@code length} bytes of {@code stream} from {@code position} on to {@code out}. */
    void copy(TaskStreamChannel stream, long position, long length, WritableByteChannel out) throws IOException {
        stream.position(position);
        long left = length;
        while (left > 0) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), left));
            int read = stream.read(buffer);
            if (read < 0) {
                throw new EOFException("task " + stream.task().index() + " stream ends at " + stream.size()
                        + ", before byte " + (position + length));
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            left -= read;
            progress.advance(read);
        }
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
