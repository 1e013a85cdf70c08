package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.quire.format.CorruptFileException;

/**
 * Rebuilds the record index of a key-value inline task stream by walking it from the start,
 * as SIONlib's full key scan does (reference section 2.9): there is no stored index.
 */
final class KeyValueScanner {

    private static final String STRUCTURE = "key-value record";

    private KeyValueScanner() {
    }

    static List<KeyValueRecord> scan(Path file, TaskStreamChannel stream, ByteOrder order) throws IOException {
        List<KeyValueRecord> records = new ArrayList<>();
        long size = stream.size();
        long position = 0;
        ByteBuffer header = ByteBuffer.allocate(KeyValueRecordLayout.HEADER_SIZE).order(order);
        while (position < size) {
            long left = size - position;
            if (left < KeyValueRecordLayout.HEADER_SIZE) {
                throw new CorruptFileException(file, stream.fileOffsetOf(position), STRUCTURE,
                        "header of record " + records.size() + " of task " + stream.task().index(),
                        KeyValueRecordLayout.HEADER_SIZE + " bytes", left + " bytes before the end of the task stream");
            }
            header.clear();
            stream.position(position).readFully(header);
            long key = KeyValueRecordLayout.key(header);
            long length = KeyValueRecordLayout.length(header);
            long dataPosition = position + KeyValueRecordLayout.HEADER_SIZE;
            if (length < 0 || length > size - dataPosition) {
                throw new CorruptFileException(file, stream.fileOffsetOf(position + KeyValueRecordLayout.LENGTH_OFFSET),
                        STRUCTURE, "length of record " + records.size() + " of task " + stream.task().index(),
                        "0.." + (size - dataPosition) + " (bytes left in the task stream)", Long.toString(length));
            }
            records.add(new KeyValueRecord(key, length, dataPosition));
            position = dataPosition + length;
        }
        return records;
    }
}
