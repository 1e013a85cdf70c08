package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte layout of the trailer right behind META2 (reference section 2.4). Integers in the
 * writer's byte order; offsets relative to the end of META2.
 *
 * <pre>
 *  offset   size  field
 *  0        4     int32 mapping_size (s)
 *  4 + 8g   4     int32 filenumber of global task g      for g = 0 .. s-1
 *  8 + 8g   4     int32 local rank of global task g
 *  4 + 8s         end of trailer
 * </pre>
 *
 * <table>
 *   <caption>which file has which trailer</caption>
 *   <tr><td>single file, serial writer</td><td>mapping_size = 0 only</td></tr>
 *   <tr><td>single file, parallel writer</td><td>no trailer (EOF after META2)</td></tr>
 *   <tr><td>file set, physical file 0</td><td>mapping_size = tasks of the set, then the pairs</td></tr>
 *   <tr><td>file set, files 1..nfiles-1</td><td>no trailer</td></tr>
 * </table>
 *
 * This class is the only place that knows these offsets.
 */
public final class MappingLayout {

    public static final int MAPPING_SIZE_LENGTH = 4;
    public static final int ENTRY_LENGTH = 8;

    private MappingLayout() {
    }

    public static long entryOffset(int globalTask) {
        return MAPPING_SIZE_LENGTH + (long) ENTRY_LENGTH * globalTask;
    }

    public static long size(long mappingSize) {
        return MAPPING_SIZE_LENGTH + ENTRY_LENGTH * mappingSize;
    }

    /** The trailer of a serial-written single file: {@code mapping_size = 0}. */
    public static ByteBuffer encodeSerialTrailer(ByteOrder order) {
        return encode(List.of(), order);
    }

    /** The trailer of physical file 0 of a set: one entry per global task, in global order. */
    public static ByteBuffer encode(List<TaskLocation> mapping, ByteOrder order) {
        ByteBuffer trailer = ByteBuffer.allocate(Math.toIntExact(size(mapping.size()))).order(order);
        trailer.putInt(0, mapping.size());
        for (int task = 0; task < mapping.size(); task++) {
            trailer.putInt((int) entryOffset(task), mapping.get(task).fileNumber());
            trailer.putInt((int) entryOffset(task) + 4, mapping.get(task).localRank());
        }
        return trailer;
    }

    /** Reads mapping_size from the first {@link #MAPPING_SIZE_LENGTH} bytes of a trailer. */
    public static int decodeMappingSize(ByteBuffer trailerStart) {
        return trailerStart.getInt(0);
    }

    /** Decodes the entries of a trailer of {@code mappingSize} entries (the whole trailer). */
    public static List<TaskLocation> decodeEntries(ByteBuffer trailer, int mappingSize) {
        List<TaskLocation> mapping = new ArrayList<>(mappingSize);
        for (int task = 0; task < mappingSize; task++) {
            mapping.add(new TaskLocation(trailer.getInt((int) entryOffset(task)),
                    trailer.getInt((int) entryOffset(task) + 4)));
        }
        return mapping;
    }
}
