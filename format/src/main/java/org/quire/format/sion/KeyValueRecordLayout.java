package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Byte layout of one record of a task stream in key-value inline mode (reference section 2.9).
 * Offsets are relative to the record's start in the task's logical stream (chunks concatenated);
 * integers in the writer's (metadata) byte order. Records follow each other with no gap, and a
 * header or its data may be split by a chunk boundary.
 *
 * <pre>
 *  offset  size    field
 *  0       8       int64 key
 *  8       8       int64 length of the data (&gt;= 0)
 *  16      length  data
 * </pre>
 */
public final class KeyValueRecordLayout {

    public static final int KEY_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int HEADER_SIZE = 16;

    private KeyValueRecordLayout() {
    }

    public static ByteBuffer encodeHeader(long key, long length, ByteOrder order) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(order);
        header.putLong(KEY_OFFSET, key);
        header.putLong(LENGTH_OFFSET, length);
        return header;
    }

    public static long key(ByteBuffer header) {
        return header.getLong(KEY_OFFSET);
    }

    public static long length(ByteBuffer header) {
        return header.getLong(LENGTH_OFFSET);
    }
}
