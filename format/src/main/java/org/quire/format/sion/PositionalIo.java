package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.quire.format.CorruptFileException;

/** Positional reads and writes on a {@link FileChannel} that loop until done (no shared file pointer). */
final class PositionalIo {

    private PositionalIo() {
    }

    /**
     * Reads exactly {@code length} bytes at {@code offset}; hitting EOF first means the file is
     * truncated in {@code structure}/{@code field}.
     */
    static ByteBuffer readExactly(FileChannel channel, Path file, long offset, int length, ByteOrder order,
                                  String structure, String field) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(order);
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, offset + buffer.position());
            if (read < 0) {
                throw new CorruptFileException(file, offset + buffer.position(), structure, field,
                        length + " bytes from offset " + offset, "end of file after " + buffer.position() + " bytes");
            }
        }
        return buffer.flip();
    }

    /** Writes all remaining bytes of {@code source} at {@code offset}. */
    static void writeFully(FileChannel channel, ByteBuffer source, long offset) throws IOException {
        long position = offset;
        while (source.hasRemaining()) {
            position += channel.write(source, position);
        }
    }
}
