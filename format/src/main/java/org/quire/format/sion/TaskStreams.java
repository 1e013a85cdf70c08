package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.quire.format.UnsupportedFormatException;

/** Whole-stream and key-value reads shared by the serial and the parallel reader. */
final class TaskStreams {

    private TaskStreams() {
    }

    static byte[] readFully(TaskStreamChannel stream) throws IOException {
        byte[] data = new byte[arrayLength(stream.size(), stream.task())];
        stream.position(0).readFully(ByteBuffer.wrap(data));
        return data;
    }

    static byte[] readRecord(TaskStreamChannel stream, KeyValueRecord record) throws IOException {
        byte[] data = new byte[arrayLength(record.length(), stream.task())];
        stream.position(record.dataPosition()).readFully(ByteBuffer.wrap(data));
        return data;
    }

    static byte[] readKey(TaskStreamChannel stream, List<KeyValueRecord> records, long key) throws IOException {
        long total = records.stream().filter(r -> r.key() == key).mapToLong(KeyValueRecord::length).sum();
        ByteBuffer data = ByteBuffer.allocate(arrayLength(total, stream.task()));
        for (KeyValueRecord record : records) {
            if (record.key() == key) {
                stream.position(record.dataPosition()).readFully(data.limit(data.position() + (int) record.length()));
            }
        }
        return data.array();
    }

    static void requireKeyValueMode(Path name, KeyValueMode mode) throws UnsupportedFormatException {
        if (mode != KeyValueMode.INLINE) {
            throw new UnsupportedFormatException(name, "META1 flag1 key-value mode", Meta1Layout.FLAG1_OFFSET,
                    "mode " + mode, "INLINE (flag1 51<<32) for key-value access");
        }
    }

    private static int arrayLength(long length, SionTask task) {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("task " + task.index() + ": " + length
                    + " bytes do not fit one byte[]; read through a TaskStreamChannel instead");
        }
        return (int) length;
    }
}
