package org.quire.format.sion;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;

/**
 * The one place that decides whether metadata read from a physical file is acceptable: identity,
 * version, counts, and that every offset and size fits the file before anything is allocated
 * from it. Each failure names the file, the absolute offset and field, what is allowed and what
 * was found.
 */
final class SionMetadataValidator {

    /** File format versions this reader understands (reference section 2.7). */
    static final int OLDEST_READABLE_FILEFORMAT_VERSION = 3;
    static final int NEWEST_READABLE_FILEFORMAT_VERSION = 5;

    private static final String META1 = "META1";
    private static final String META2 = "META2";
    private static final String MAPPING = "mapping";

    private final Path file;
    private final long fileSize;

    SionMetadataValidator(Path file, long fileSize) {
        this.file = file;
        this.fileSize = fileSize;
    }

    /** The file must hold {@code length} bytes at {@code offset} for {@code structure}/{@code field}. */
    void requireBytes(long offset, long length, String structure, String field) throws CorruptFileException {
        if (offset < 0 || length > fileSize - offset) {
            throw new CorruptFileException(file, Math.min(offset, fileSize), structure, field,
                    length + " bytes at offset " + offset, "file of " + fileSize + " bytes (truncated)");
        }
    }

    /**
     * Metadata is read in one buffer per structure; one larger than a Java array can hold (only
     * possible with a file of many GiB and a corrupt or extreme count) is not read.
     */
    void checkReadableInOnePiece(long size, String what) throws UnsupportedFormatException {
        if (size > Integer.MAX_VALUE - 8) {
            throw new UnsupportedFormatException(file, what, UnsupportedFormatException.NO_OFFSET,
                    size + " bytes", "at most " + (Integer.MAX_VALUE - 8) + " bytes (read in one piece)");
        }
    }

    /**
     * A file without the magic is not a damaged SION file but another kind of file.
     *
     * @param start the file's first bytes, up to the magic's length
     */
    void checkMagic(byte[] start) throws WrongFormatException {
        if (!Arrays.equals(start, Meta1Layout.MAGIC)) {
            throw new WrongFormatException(file, "a SION", WrongFormatException.startInsteadOf(start)
                    + (start.length == 0 ? "" : ", not the magic 73 69 6f 6e (\"sion\")"));
        }
    }

    EndiannessWord checkEndiannessWord(byte[] word) throws CorruptFileException {
        return EndiannessWord.parse(word).orElseThrow(() -> new CorruptFileException(file,
                Meta1Layout.ENDIANNESS_OFFSET, META1, "endianness word",
                "bytes 0 and 3 equal (0 or 1) and bytes 1 and 2 equal (0 or 1), e.g. 00 00 00 00 or 01 01 01 01",
                EndiannessWord.hex(word)));
    }

    /** Checks the fixed part; afterwards META1's arrays and tail are known to fit the file. */
    void checkFixedPart(Meta1FixedPart fixed) throws CorruptFileException, UnsupportedFormatException {
        checkFixedPart(fixed, Meta1Layout.TAIL_SIZE);
    }

    /**
     * Checks the fixed part of a file that may never have been closed, whose META1 may end before
     * its tail; afterwards META1's arrays are known to fit the file.
     */
    void checkFixedPartOfUnclosedFile(Meta1FixedPart fixed) throws CorruptFileException, UnsupportedFormatException {
        checkFixedPart(fixed, 0);
    }

    private void checkFixedPart(Meta1FixedPart fixed, int tailBytes) throws CorruptFileException,
            UnsupportedFormatException {
        int version = fixed.fileFormatVersion();
        if (version < OLDEST_READABLE_FILEFORMAT_VERSION || version > NEWEST_READABLE_FILEFORMAT_VERSION) {
            throw new UnsupportedFormatException(file, "META1 fileformat_version", Meta1Layout.FILEFORMAT_VERSION_OFFSET,
                    "version " + version, "versions " + OLDEST_READABLE_FILEFORMAT_VERSION + " to "
                    + NEWEST_READABLE_FILEFORMAT_VERSION);
        }
        if (fixed.fsBlockSize() < 1) {
            throw new CorruptFileException(file, Meta1Layout.FS_BLOCK_SIZE_OFFSET, META1, "fsblksize",
                    "at least 1", Integer.toString(fixed.fsBlockSize()));
        }
        long maxTasks = (fileSize - Meta1Layout.FIXED_PART_SIZE - tailBytes) / 16;
        if (fixed.taskCount() < 1 || fixed.taskCount() > maxTasks) {
            throw new CorruptFileException(file, Meta1Layout.TASK_COUNT_OFFSET, META1, "ntasks",
                    "1.." + Math.max(0, maxTasks) + " (META1 of " + (Meta1Layout.FIXED_PART_SIZE + tailBytes)
                            + "+16*ntasks bytes must fit the file of " + fileSize + " bytes)",
                    Integer.toString(fixed.taskCount()));
        }
        if (fixed.fileCount() < 1) {
            throw new CorruptFileException(file, Meta1Layout.FILE_COUNT_OFFSET, META1, "nfiles",
                    "at least 1", Integer.toString(fixed.fileCount()));
        }
        // The serial writer stores 1 for a single file, parallel writers 0.
        int highestFileNumber = fixed.fileCount() == 1 ? 1 : fixed.fileCount() - 1;
        if (fixed.fileNumber() < 0 || fixed.fileNumber() > highestFileNumber) {
            throw new CorruptFileException(file, Meta1Layout.FILE_NUMBER_OFFSET, META1, "filenumber",
                    "0.." + highestFileNumber + " for nfiles " + fixed.fileCount(),
                    Integer.toString(fixed.fileNumber()));
        }
    }

    /** The key-value mode stored in flag1 (only meaningful from file format 5 on). */
    KeyValueMode keyValueMode(Meta1FixedPart fixed) throws UnsupportedFormatException {
        if (fixed.fileFormatVersion() < 5) {
            return KeyValueMode.NONE;
        }
        long code = fixed.flag1() >>> 32;
        if (code == 0 || code == KeyValueMode.NONE.code()) {
            return KeyValueMode.NONE;
        }
        if (code == KeyValueMode.INLINE.code()) {
            return KeyValueMode.INLINE;
        }
        throw new UnsupportedFormatException(file, "META1 flag1 key-value mode", Meta1Layout.FLAG1_OFFSET,
                "mode " + code, "0 or 50 (none) and 51 (inline)");
    }

    /**
     * Checks META1's arrays and tail against each other and the file size, and returns the chunk
     * geometry: the writer closed the file, META2 lies between META1 and EOF and fits there, and
     * every row of chunks ends before META2.
     */
    ChunkGeometry checkChunkLayout(Meta1 meta1, long[] chunkCapacities) throws CorruptFileException {
        int taskCount = meta1.fixedPart().taskCount();
        long startOfMeta2 = meta1.startOfMeta2();
        long startOfMeta2Offset = Meta1Layout.startOfMeta2Offset(taskCount);
        if (startOfMeta2 == 0) {
            Path journal = SionFileNames.journal(file);
            throw new SionNotClosedException(file, startOfMeta2Offset, Files.exists(journal) ? journal : null);
        }
        long startOfData = ChunkGeometry.alignUp(Meta1Layout.size(taskCount), meta1.fixedPart().fsBlockSize());
        if (startOfMeta2 < startOfData || startOfMeta2 > fileSize) {
            throw new CorruptFileException(file, startOfMeta2Offset, META1, "start_of_varheader",
                    startOfData + ".." + fileSize + " (between the start of the data and the end of the file)",
                    Long.toString(startOfMeta2));
        }
        int maxChunks = meta1.maxChunks();
        if (maxChunks < 1) {
            throw new CorruptFileException(file, Meta1Layout.maxChunksOffset(taskCount), META1, "maxchunks",
                    "at least 1", Integer.toString(maxChunks));
        }
        long rowEnd = startOfData;
        for (int task = 0; task < taskCount; task++) {
            long capacity = chunkCapacities[task];
            if (capacity < 0 || capacity > startOfMeta2 - rowEnd) {
                throw new CorruptFileException(file, Meta1Layout.chunkCapacityOffset(taskCount, task), META1,
                        "chunksize[" + task + "]", "0.." + Math.max(0, startOfMeta2 - rowEnd)
                                + " (chunk 0 must end before META2 at " + startOfMeta2 + ")",
                        Long.toString(capacity));
            }
            rowEnd += capacity;
        }
        long globalSkip = rowEnd - startOfData;
        if (globalSkip > 0 && maxChunks > (startOfMeta2 - startOfData) / globalSkip) {
            throw new CorruptFileException(file, Meta1Layout.maxChunksOffset(taskCount), META1, "maxchunks",
                    "at most " + (startOfMeta2 - startOfData) / globalSkip + " rows of globalskip " + globalSkip
                            + " between start of data " + startOfData + " and META2 at " + startOfMeta2,
                    Integer.toString(maxChunks));
        }
        long meta2Rows = (fileSize - startOfMeta2) / (8L * taskCount);
        if (meta2Rows < 1L + maxChunks) {
            throw new CorruptFileException(file, fileSize, META2, "chunk table",
                    "8*ntasks*(1+maxchunks) bytes (ntasks " + taskCount + ", maxchunks " + maxChunks
                            + ") at start_of_varheader " + startOfMeta2, "file of " + fileSize + " bytes (truncated)");
        }
        return ChunkGeometry.fromCapacities(meta1.fixedPart().fsBlockSize(), chunkCapacities);
    }

    /**
     * The chunk geometry of a file that may never have been closed, where only META1's arrays
     * bound it: capacities are not negative and the rows do not overflow.
     */
    ChunkGeometry checkUnclosedChunkLayout(Meta1 meta1) throws CorruptFileException {
        int taskCount = meta1.fixedPart().taskCount();
        long[] capacities = meta1.chunkCapacities();
        long startOfData = ChunkGeometry.alignUp(Meta1Layout.size(taskCount), meta1.fixedPart().fsBlockSize());
        long rowEnd = startOfData;
        for (int task = 0; task < taskCount; task++) {
            if (capacities[task] < 0 || capacities[task] > Long.MAX_VALUE - rowEnd) {
                throw new CorruptFileException(file, Meta1Layout.chunkCapacityOffset(taskCount, task), META1,
                        "chunksize[" + task + "]", "0.." + (Long.MAX_VALUE - rowEnd)
                                + " (a row of chunks must not overflow a 64-bit offset)", Long.toString(capacities[task]));
            }
            rowEnd += capacities[task];
        }
        return ChunkGeometry.fromCapacities(meta1.fixedPart().fsBlockSize(), capacities);
    }

    /** Every task used 1..maxchunks chunks, each filled to at most its capacity. */
    void checkMeta2(Meta1 meta1, ChunkGeometry geometry, Meta2 meta2) throws CorruptFileException {
        int taskCount = meta1.fixedPart().taskCount();
        for (int task = 0; task < taskCount; task++) {
            long chunks = meta2.chunkCount(task);
            if (chunks < 1 || chunks > meta1.maxChunks()) {
                throw new CorruptFileException(file, meta1.startOfMeta2() + Meta2Layout.chunkCountOffset(task), META2,
                        "chunks[" + task + "]", "1.." + meta1.maxChunks() + " (maxchunks)", Long.toString(chunks));
            }
            long capacity = geometry.chunkCapacity(task);
            for (int chunk = 0; chunk < chunks; chunk++) {
                long bytes = meta2.bytesInChunk(task, chunk);
                if (bytes < 0 || bytes > capacity) {
                    throw new CorruptFileException(file,
                            meta1.startOfMeta2() + Meta2Layout.bytesInChunkOffset(taskCount, chunk, task), META2,
                            "bytes of task " + task + " in chunk " + chunk, "0.." + capacity + " (chunk capacity)",
                            Long.toString(bytes));
                }
            }
        }
    }

    /** A single file may end with the serial writer's trailer, whose mapping_size must be 0. */
    void checkSerialTrailer(int mappingSize, long offset) throws CorruptFileException {
        if (mappingSize != 0) {
            throw new CorruptFileException(file, offset, MAPPING, "mapping_size",
                    "0 (single file) or no trailer", Integer.toString(mappingSize));
        }
    }

    /** File 0 of a set holds one entry per task of the set; each file has at least one task. */
    void checkMappingSize(int mappingSize, long offset, int fileCount) throws CorruptFileException {
        long maxEntries = (fileSize - offset - MappingLayout.MAPPING_SIZE_LENGTH) / MappingLayout.ENTRY_LENGTH;
        if (mappingSize < fileCount || mappingSize > maxEntries) {
            throw new CorruptFileException(file, offset, MAPPING, "mapping_size",
                    fileCount + ".." + maxEntries + " (at least one task per file, entries must fit the file)",
                    Integer.toString(mappingSize));
        }
    }

    /**
     * Each entry names an existing file and local rank, and each (file, local rank) appears once:
     * {@code taskCounts[f]} is ntasks of physical file f.
     */
    void checkMappingEntries(List<TaskLocation> mapping, long offset, int[] taskCounts) throws CorruptFileException {
        boolean[][] seen = new boolean[taskCounts.length][];
        int[] entriesPerFile = new int[taskCounts.length];
        for (int task = 0; task < mapping.size(); task++) {
            TaskLocation location = mapping.get(task);
            long entryOffset = offset + MappingLayout.entryOffset(task);
            int fileNumber = location.fileNumber();
            if (fileNumber < 0 || fileNumber >= taskCounts.length) {
                throw new CorruptFileException(file, entryOffset, MAPPING, "filenumber of task " + task,
                        "0.." + (taskCounts.length - 1), Integer.toString(fileNumber));
            }
            if (seen[fileNumber] == null) {
                seen[fileNumber] = new boolean[taskCounts[fileNumber]];
            }
            int localRank = location.localRank();
            if (localRank < 0 || localRank >= taskCounts[fileNumber] || seen[fileNumber][localRank]) {
                throw new CorruptFileException(file, entryOffset + 4, MAPPING, "local rank of task " + task,
                        "an unused local rank in 0.." + (taskCounts[fileNumber] - 1) + " of file " + fileNumber,
                        Integer.toString(localRank));
            }
            seen[fileNumber][localRank] = true;
            entriesPerFile[fileNumber]++;
        }
        for (int fileNumber = 0; fileNumber < taskCounts.length; fileNumber++) {
            if (entriesPerFile[fileNumber] != taskCounts[fileNumber]) {
                throw new CorruptFileException(file, offset, MAPPING, "entries of file " + fileNumber,
                        taskCounts[fileNumber] + " (ntasks of that file)", Integer.toString(entriesPerFile[fileNumber]));
            }
        }
    }

    /** A member of a set must agree with file 0 on nfiles, its own number, flags and byte order. */
    void checkSetMember(Meta1FixedPart member, Meta1FixedPart first, int expectedFileNumber)
            throws CorruptFileException {
        if (member.fileCount() != first.fileCount()) {
            throw new CorruptFileException(file, Meta1Layout.FILE_COUNT_OFFSET, META1, "nfiles",
                    first.fileCount() + " (as in file 0 of the set)", Integer.toString(member.fileCount()));
        }
        if (member.fileNumber() != expectedFileNumber) {
            throw new CorruptFileException(file, Meta1Layout.FILE_NUMBER_OFFSET, META1, "filenumber",
                    Integer.toString(expectedFileNumber), Integer.toString(member.fileNumber()));
        }
        if (!member.endianness().equals(first.endianness())) {
            throw new CorruptFileException(file, Meta1Layout.ENDIANNESS_OFFSET, META1, "endianness word",
                    EndiannessWord.hex(first.endianness().toBytes()) + " (as in file 0 of the set)",
                    EndiannessWord.hex(member.endianness().toBytes()));
        }
        if (member.flag1() != first.flag1()) {
            throw new CorruptFileException(file, Meta1Layout.FLAG1_OFFSET, META1, "flag1",
                    first.flag1() + " (as in file 0 of the set)", Long.toString(member.flag1()));
        }
    }
}
