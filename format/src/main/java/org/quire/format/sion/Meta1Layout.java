package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Byte layout of META1, the header at offset 0 of every physical file (reference section 2.1).
 * {@code n} = tasks in this physical file. Integers are in the writer's byte order (see
 * {@link EndiannessWord}), packed with no padding.
 *
 * <pre>
 *  offset        size  field
 *  0             4     magic "sion"
 *  4             4     endianness word
 *  8             4     int32 version (1000*main + sub, 1007)
 *  12            4     int32 version_patchlevel (6)
 *  16            4     int32 fileformat_version (5)
 *  20            4     int32 fsblksize
 *  24            4     int32 ntasks (n)
 *  28            4     int32 nfiles
 *  32            4     int32 filenumber
 *  36            8     int64 flag1 (keyvalmode &lt;&lt; 32)
 *  44            8     int64 flag2 (0)
 *  52            1024  prefix, NUL padded
 *  1076          8n    int64 globalrank[n]
 *  1076+8n       8n    int64 chunksize[n]  (capacity after alignment)
 *  1076+16n      4     int32 maxchunks            -- written at close
 *  1080+16n      8     int64 start_of_varheader   -- written at close (0 = never closed)
 *  1088+16n            end of META1
 * </pre>
 *
 * This class is the only place that knows these offsets.
 */
public final class Meta1Layout {

    public static final byte[] MAGIC = {'s', 'i', 'o', 'n'};
    public static final int MAGIC_OFFSET = 0;
    public static final int ENDIANNESS_OFFSET = 4;
    public static final int VERSION_OFFSET = 8;
    public static final int VERSION_PATCHLEVEL_OFFSET = 12;
    public static final int FILEFORMAT_VERSION_OFFSET = 16;
    public static final int FS_BLOCK_SIZE_OFFSET = 20;
    public static final int TASK_COUNT_OFFSET = 24;
    public static final int FILE_COUNT_OFFSET = 28;
    public static final int FILE_NUMBER_OFFSET = 32;
    public static final int FLAG1_OFFSET = 36;
    public static final int FLAG2_OFFSET = 44;
    public static final int PREFIX_OFFSET = 52;
    public static final int PREFIX_LENGTH = 1024;
    /** Size of everything before the per-task arrays. */
    public static final int FIXED_PART_SIZE = PREFIX_OFFSET + PREFIX_LENGTH;
    /** Size of maxchunks + start_of_varheader. */
    public static final int TAIL_SIZE = 4 + 8;

    /** What SIONlib 1.7.6 writes as version, patch level and file format version. */
    public static final int WRITTEN_VERSION = 1007;
    public static final int WRITTEN_VERSION_PATCHLEVEL = 6;
    public static final int WRITTEN_FILEFORMAT_VERSION = 5;

    private Meta1Layout() {
    }

    public static long globalRankOffset(long taskCount, int task) {
        return FIXED_PART_SIZE + 8L * task;
    }

    public static long chunkCapacityOffset(long taskCount, int task) {
        return FIXED_PART_SIZE + 8L * taskCount + 8L * task;
    }

    /** Offset of the tail (maxchunks, then start_of_varheader). */
    public static long maxChunksOffset(long taskCount) {
        return FIXED_PART_SIZE + 16L * taskCount;
    }

    public static long startOfMeta2Offset(long taskCount) {
        return maxChunksOffset(taskCount) + 4;
    }

    /** Size of META1 for {@code taskCount} tasks: {@code 1088 + 16n}. */
    public static long size(long taskCount) {
        return maxChunksOffset(taskCount) + TAIL_SIZE;
    }

    /** Bytes after the fixed part: both arrays and the tail. */
    public static long variablePartSize(long taskCount) {
        return size(taskCount) - FIXED_PART_SIZE;
    }

    /** Prefix bytes as stored (UTF-8); the caller checks they fit {@link #PREFIX_LENGTH}. */
    public static byte[] prefixBytes(String prefix) {
        return prefix.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Encodes what the writer puts down at open: fixed part and both arrays, i.e. META1 up to
     * (not including) the tail. The returned buffer is ready to be written.
     */
    public static ByteBuffer encodeHead(Meta1FixedPart fixed, long[] globalRanks, long[] chunkCapacities) {
        int taskCount = fixed.taskCount();
        byte[] prefix = prefixBytes(fixed.prefix());
        if (prefix.length > PREFIX_LENGTH || globalRanks.length != taskCount
                || chunkCapacities.length != taskCount) {
            throw new IllegalArgumentException("META1 head does not match " + taskCount + " tasks or prefix is longer than "
                    + PREFIX_LENGTH + " bytes");
        }
        ByteBuffer head = ByteBuffer.allocate(Math.toIntExact(maxChunksOffset(taskCount)))
                .order(fixed.endianness().metadataOrder());
        head.put(MAGIC_OFFSET, MAGIC);
        head.put(ENDIANNESS_OFFSET, fixed.endianness().toBytes());
        head.putInt(VERSION_OFFSET, fixed.version());
        head.putInt(VERSION_PATCHLEVEL_OFFSET, fixed.versionPatchlevel());
        head.putInt(FILEFORMAT_VERSION_OFFSET, fixed.fileFormatVersion());
        head.putInt(FS_BLOCK_SIZE_OFFSET, fixed.fsBlockSize());
        head.putInt(TASK_COUNT_OFFSET, taskCount);
        head.putInt(FILE_COUNT_OFFSET, fixed.fileCount());
        head.putInt(FILE_NUMBER_OFFSET, fixed.fileNumber());
        head.putLong(FLAG1_OFFSET, fixed.flag1());
        head.putLong(FLAG2_OFFSET, fixed.flag2());
        head.put(PREFIX_OFFSET, prefix);
        for (int task = 0; task < taskCount; task++) {
            head.putLong((int) globalRankOffset(taskCount, task), globalRanks[task]);
            head.putLong((int) chunkCapacityOffset(taskCount, task), chunkCapacities[task]);
        }
        return head;
    }

    /** Encodes the tail written at close; it belongs at {@link #maxChunksOffset(long)}. */
    public static ByteBuffer encodeTail(int maxChunks, long startOfMeta2, ByteOrder order) {
        ByteBuffer tail = ByteBuffer.allocate(TAIL_SIZE).order(order);
        tail.putInt(0, maxChunks);
        tail.putLong(4, startOfMeta2);
        return tail;
    }

    /** The stored magic bytes of a fixed part read from offset 0. */
    public static byte[] magic(ByteBuffer fixedPart) {
        return bytesAt(fixedPart, MAGIC_OFFSET, MAGIC.length);
    }

    /** The stored endianness word of a fixed part read from offset 0. */
    public static byte[] endiannessWord(ByteBuffer fixedPart) {
        return bytesAt(fixedPart, ENDIANNESS_OFFSET, EndiannessWord.LENGTH);
    }

    /**
     * Decodes the fixed part ({@link #FIXED_PART_SIZE} bytes read from offset 0) once the
     * endianness word is known to be valid.
     */
    public static Meta1FixedPart decodeFixedPart(ByteBuffer fixedPart, EndiannessWord endianness) {
        ByteBuffer in = fixedPart.duplicate().order(endianness.metadataOrder());
        byte[] prefix = bytesAt(in, PREFIX_OFFSET, PREFIX_LENGTH);
        int prefixLength = 0;
        while (prefixLength < prefix.length && prefix[prefixLength] != 0) {
            prefixLength++;
        }
        return new Meta1FixedPart(endianness, in.getInt(VERSION_OFFSET), in.getInt(VERSION_PATCHLEVEL_OFFSET),
                in.getInt(FILEFORMAT_VERSION_OFFSET), in.getInt(FS_BLOCK_SIZE_OFFSET), in.getInt(TASK_COUNT_OFFSET),
                in.getInt(FILE_COUNT_OFFSET), in.getInt(FILE_NUMBER_OFFSET), in.getLong(FLAG1_OFFSET),
                in.getLong(FLAG2_OFFSET), new String(prefix, 0, prefixLength, StandardCharsets.UTF_8));
    }

    /**
     * Decodes the variable part ({@link #variablePartSize(long)} bytes read from
     * {@link #FIXED_PART_SIZE}); the caller has checked that the task count fits the file.
     */
    public static Meta1 decodeVariablePart(Meta1FixedPart fixed, ByteBuffer variablePart) {
        ByteBuffer in = variablePart.duplicate().order(fixed.endianness().metadataOrder());
        int taskCount = fixed.taskCount();
        long[] globalRanks = new long[taskCount];
        long[] capacities = new long[taskCount];
        for (int task = 0; task < taskCount; task++) {
            globalRanks[task] = in.getLong((int) (globalRankOffset(taskCount, task) - FIXED_PART_SIZE));
            capacities[task] = in.getLong((int) (chunkCapacityOffset(taskCount, task) - FIXED_PART_SIZE));
        }
        int maxChunks = in.getInt((int) (maxChunksOffset(taskCount) - FIXED_PART_SIZE));
        long startOfMeta2 = in.getLong((int) (startOfMeta2Offset(taskCount) - FIXED_PART_SIZE));
        return new Meta1(fixed, globalRanks, capacities, maxChunks, startOfMeta2);
    }

    private static byte[] bytesAt(ByteBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.get(offset, bytes);
        return bytes;
    }
}
