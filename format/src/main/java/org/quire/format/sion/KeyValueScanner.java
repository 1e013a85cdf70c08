package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.quire.format.CorruptFileException;

/**
 * Rebuilds the record index of a key-value inline task stream by walking it from the start,
 * as SIONlib's full key scan does (reference section 2.9): there is no stored index.
 */
final class KeyValueScanner {

    private static final String STRUCTURE = "key-value record";

    private KeyValueScanner() {
    }

    /** Every record of the stream; a record cut off by the end of the stream is corruption. */
    static List<KeyValueRecord> scan(Path file, TaskStreamChannel stream, ByteOrder order) throws IOException {
        List<KeyValueRecord> records = new ArrayList<>();
        walk(file, stream, order, false, records::add);
        return records;
    }

    /**
     * Stream position where the last complete record ends (0 if there is none): the length of
     * the longest prefix of whole records. A record cut off by the end of the stream (a writer
     * that died inside it) is not counted; a negative length is still corruption.
     */
    static long completeRecordsEnd(Path file, TaskStreamChannel stream, ByteOrder order) throws IOException {
        return walk(file, stream, order, true, record -> { });
    }

    /** Walks the records from position 0, handing each to {@code found}; returns where the walk ended. */
    private static long walk(Path file, TaskStreamChannel stream, ByteOrder order, boolean stopAtCutRecord,
                             Consumer<KeyValueRecord> found) throws IOException {
        long size = stream.size();
        long position = 0;
        long index = 0;
        ByteBuffer header = ByteBuffer.allocate(KeyValueRecordLayout.HEADER_SIZE).order(order);
        while (position < size) {
            long left = size - position;
            if (left < KeyValueRecordLayout.HEADER_SIZE) {
                if (stopAtCutRecord) {
                    return position;
                }
                throw new CorruptFileException(file, stream.fileOffsetOf(position), STRUCTURE,
                        "header of record " + index + " of task " + stream.task().index(),
                        KeyValueRecordLayout.HEADER_SIZE + " bytes", left + " bytes before the end of the task stream");
            }
            header.clear();
            stream.position(position).readFully(header);
            long key = KeyValueRecordLayout.key(header);
            long length = KeyValueRecordLayout.length(header);
            long dataPosition = position + KeyValueRecordLayout.HEADER_SIZE;
            if (length > size - dataPosition && stopAtCutRecord) {
                return position;
            }
            if (length < 0 || length > size - dataPosition) {
                throw new CorruptFileException(file, stream.fileOffsetOf(position + KeyValueRecordLayout.LENGTH_OFFSET),
                        STRUCTURE, "length of record " + index + " of task " + stream.task().index(),
                        "0.." + (size - dataPosition) + " (bytes left in the task stream)", Long.toString(length));
            }
            found.accept(new KeyValueRecord(key, length, dataPosition));
            position = dataPosition + length;
            index++;
        }
        return position;
    }
}
