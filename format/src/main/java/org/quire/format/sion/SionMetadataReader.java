package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.quire.format.storage.Storage;

/**
 * Reads and validates the metadata of one physical file the way reference section 2.8 describes:
 * fixed part, then META1's arrays, then META2 at start_of_varheader, then the trailer. Every
 * size is checked against the file size before a buffer is allocated for it.
 */
final class SionMetadataReader {

    private SionMetadataReader() {
    }

    /** Reads a physical file on its own (file 0 of a set, a single file, or any file for inspection). */
    static PhysicalFileMetadata read(Storage storage) throws IOException {
        return read(storage, null, -1);
    }

    /**
     * Reads physical file {@code fileNumber} of the set whose file 0 has the fixed part
     * {@code firstOfSet}; it must agree with file 0 before anything else of it is interpreted.
     */
    static PhysicalFileMetadata readSetMember(Storage storage, Meta1FixedPart firstOfSet,
                                              int fileNumber) throws IOException {
        return read(storage, firstOfSet, fileNumber);
    }

    private static PhysicalFileMetadata read(Storage storage, Meta1FixedPart firstOfSet,
                                             int fileNumber) throws IOException {
        Path path = storage.path();
        long fileSize = storage.size();
        SionMetadataValidator validator = new SionMetadataValidator(path, fileSize);

        Meta1FixedPart fixed = readFixedPart(storage, validator, firstOfSet, fileNumber, true);
        KeyValueMode keyValueMode = validator.keyValueMode(fixed);

        ByteOrder order = fixed.endianness().metadataOrder();
        int taskCount = fixed.taskCount();
        long variablePartSize = Meta1Layout.variablePartSize(taskCount);
        validator.checkReadableInOnePiece(variablePartSize, "META1 arrays of ntasks " + taskCount);
        ByteBuffer variableBytes = PositionalIo.readExactly(storage, Meta1Layout.FIXED_PART_SIZE,
                (int) variablePartSize, order, "META1", "globalrank/chunksize arrays");
        Meta1 meta1 = Meta1Layout.decodeVariablePart(fixed, variableBytes);
        ChunkGeometry geometry = validator.checkChunkLayout(meta1, readableCapacities(meta1));

        long meta2Size = Meta2Layout.size(taskCount, meta1.maxChunks());
        validator.checkReadableInOnePiece(meta2Size, "META2 of ntasks " + taskCount + " and maxchunks "
                + meta1.maxChunks());
        ByteBuffer meta2Bytes = PositionalIo.readExactly(storage, meta1.startOfMeta2(), (int) meta2Size, order,
                "META2", "chunk table");
        Meta2 meta2 = Meta2Layout.decode(meta2Bytes, taskCount, meta1.maxChunks());
        validator.checkMeta2(meta1, geometry, meta2);

        long trailerOffset = meta1.startOfMeta2() + meta2Size;
        OptionalInt mappingSize = OptionalInt.empty();
        List<TaskLocation> mapping = List.of();
        boolean firstFileOfSet = fixed.fileCount() > 1 && fixed.fileNumber() == 0;
        // A single file from a parallel writer ends right after META2; one from the serial writer has
        // a 4-byte trailer. Anything in between is a truncated trailer.
        if (firstFileOfSet || (fixed.fileCount() == 1 && fileSize > trailerOffset)) {
            validator.requireBytes(trailerOffset, MappingLayout.MAPPING_SIZE_LENGTH, "mapping", "mapping_size");
            int size = MappingLayout.decodeMappingSize(PositionalIo.readExactly(storage, trailerOffset,
                    MappingLayout.MAPPING_SIZE_LENGTH, order, "mapping", "mapping_size"));
            if (firstFileOfSet) {
                validator.checkMappingSize(size, trailerOffset, fixed.fileCount());
                validator.checkReadableInOnePiece(MappingLayout.size(size), "mapping of " + size + " tasks");
                ByteBuffer trailer = PositionalIo.readExactly(storage, trailerOffset,
                        (int) MappingLayout.size(size), order, "mapping", "entries");
                mapping = MappingLayout.decodeEntries(trailer, size);
            } else {
                validator.checkSerialTrailer(size, trailerOffset);
            }
            mappingSize = OptionalInt.of(size);
        }
        return new PhysicalFileMetadata(path, fileSize, meta1, keyValueMode, geometry, meta2, mappingSize, mapping);
    }

    /**
     * Reads META1 of a physical file whose writer may never have closed it, for recovery: the
     * fixed part (checked against file 0's {@code firstOfSet} for a member of a set, null
     * otherwise) and the arrays are validated as for any file; maxchunks and start_of_varheader
     * are returned as stored, or as 0 when the file ends before META1's tail.
     */
    static Meta1 readMeta1OfUnclosedFile(Storage storage, Meta1FixedPart firstOfSet, int fileNumber)
            throws IOException {
        Path path = storage.path();
        long fileSize = storage.size();
        SionMetadataValidator validator = new SionMetadataValidator(path, fileSize);
        Meta1FixedPart fixed = readFixedPart(storage, validator, firstOfSet, fileNumber, false);
        ByteOrder order = fixed.endianness().metadataOrder();
        int taskCount = fixed.taskCount();
        long variablePartSize = Meta1Layout.variablePartSize(taskCount);
        validator.checkReadableInOnePiece(variablePartSize, "META1 arrays of ntasks " + taskCount);
        long storedSize = Math.min(variablePartSize, fileSize - Meta1Layout.FIXED_PART_SIZE);
        ByteBuffer variableBytes = ByteBuffer.allocate((int) variablePartSize).order(order);
        variableBytes.put(PositionalIo.readExactly(storage, Meta1Layout.FIXED_PART_SIZE, (int) storedSize,
                order, "META1", "globalrank/chunksize arrays"));
        return Meta1Layout.decodeVariablePart(fixed, variableBytes);
    }

    /**
     * Reads and checks META1's fixed part: magic, endianness word, versions and counts, and for a
     * member of a set ({@code firstOfSet} not null) its agreement with file 0. A {@code closed}
     * file must also hold META1's tail.
     */
    private static Meta1FixedPart readFixedPart(Storage storage, SionMetadataValidator validator,
                                                Meta1FixedPart firstOfSet, int fileNumber, boolean closed)
            throws IOException {
        validator.checkMagic(PositionalIo.readUpTo(storage, Meta1Layout.MAGIC_OFFSET, Meta1Layout.MAGIC.length));
        validator.requireBytes(0, Meta1Layout.FIXED_PART_SIZE, "META1", "fixed part");
        ByteBuffer fixedBytes = PositionalIo.readExactly(storage, 0, Meta1Layout.FIXED_PART_SIZE,
                ByteOrder.LITTLE_ENDIAN, "META1", "fixed part");
        EndiannessWord endianness = validator.checkEndiannessWord(Meta1Layout.endiannessWord(fixedBytes));
        Meta1FixedPart fixed = Meta1Layout.decodeFixedPart(fixedBytes, endianness);
        if (closed) {
            validator.checkFixedPart(fixed);
        } else {
            validator.checkFixedPartOfUnclosedFile(fixed);
        }
        if (firstOfSet != null) {
            validator.checkSetMember(fixed, firstOfSet, fileNumber);
        }
        return fixed;
    }

    /** File format 3 and older stored requested sizes; the reader aligns them (reference section 2.7). */
    private static long[] readableCapacities(Meta1 meta1) {
        Meta1FixedPart fixed = meta1.fixedPart();
        if (fixed.fileFormatVersion() > 3) {
            return meta1.chunkCapacities();
        }
        long[] aligned = meta1.chunkCapacities();
        for (int task = 0; task < aligned.length; task++) {
            if (aligned[task] > 0 && aligned[task] <= Long.MAX_VALUE - fixed.fsBlockSize()) {
                aligned[task] = ChunkGeometry.alignUp(aligned[task], fixed.fsBlockSize());
            }
        }
        return aligned;
    }
}
