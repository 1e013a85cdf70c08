package org.quire.format.sion;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * Everything stored about one physical file of a SION file set, validated.
 *
 * @param path          the file
 * @param fileSize      its size when read
 * @param meta1         META1 as stored
 * @param keyValueMode  the mode declared in flag1
 * @param geometry      where its chunks lie (capacities as used for reading)
 * @param meta2         META2 as stored
 * @param mappingSize   the trailer's mapping_size, empty if the file has no trailer
 * @param mapping       the trailer's entries (only file 0 of a multi-file set has any)
 */
public record PhysicalFileMetadata(Path path, long fileSize, Meta1 meta1, KeyValueMode keyValueMode,
                                   ChunkGeometry geometry, Meta2 meta2, OptionalInt mappingSize,
                                   List<TaskLocation> mapping) {

    public PhysicalFileMetadata {
        mapping = List.copyOf(mapping);
    }

    public int taskCount() {
        return meta1.fixedPart().taskCount();
    }

    /** Offset right behind META2, where a trailer starts if there is one. */
    public long endOfMeta2() {
        return meta1.startOfMeta2() + Meta2Layout.size(taskCount(), meta1.maxChunks());
    }
}
