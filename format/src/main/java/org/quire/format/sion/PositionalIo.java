package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.Storage;

/** Exact positional reads of a structure, with the structure named when the file ends first. */
final class PositionalIo {

    private PositionalIo() {
    }

    /**
     * Reads exactly {@code length} bytes at {@code offset}; hitting EOF first means the file is
     * truncated in {@code structure}/{@code field}.
     */
    static ByteBuffer readExactly(Storage storage, long offset, int length, ByteOrder order, String structure,
                                  String field) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(order);
        if (!storage.readFully(buffer, offset)) {
            throw new CorruptFileException(storage.path(), offset + buffer.position(), structure, field,
                    length + " bytes from offset " + offset, "end of file after " + buffer.position() + " bytes");
        }
        return buffer.flip();
    }

    /** Up to {@code length} bytes at {@code offset}: fewer when the file ends first. */
    static byte[] readUpTo(Storage storage, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        storage.readFully(buffer, offset);
        return Arrays.copyOf(buffer.array(), buffer.position());
    }
}
