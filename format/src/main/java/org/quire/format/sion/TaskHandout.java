package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * What rank 0 hands a rank at a parallel open for read: the set-wide facts and the tasks the
 * rank reads (SIONlib's rank 0 reads the metadata and scatters it, reference section 3.1).
 *
 * @param fileCount     physical files in the set
 * @param keyValueMode  the set's key-value mode
 * @param endianness    the set's metadata and user-data byte order
 * @param tasks         the tasks this rank reads
 */
record TaskHandout(int fileCount, KeyValueMode keyValueMode, EndiannessWord endianness, List<SionTask> tasks) {

    byte[] encode() {
        int size = 4 + 4 + EndiannessWord.LENGTH + 4;
        for (SionTask task : tasks) {
            size += 4 + 8 + 4 + 4 + 8 + 8 + 8 + 4 + 8 * task.chunkCount();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(fileCount).putInt(keyValueMode.ordinal()).put(endianness.toBytes()).putInt(tasks.size());
        for (SionTask task : tasks) {
            out.putInt(task.index()).putLong(task.globalRank()).putInt(task.fileNumber()).putInt(task.localRank())
                    .putLong(task.chunkCapacity()).putLong(task.firstChunkOffset()).putLong(task.globalSkip())
                    .putInt(task.chunkCount());
            for (long bytes : task.bytesPerChunk()) {
                out.putLong(bytes);
            }
        }
        return out.array();
    }

    static TaskHandout decode(byte[] encoded) {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        int fileCount = in.getInt();
        KeyValueMode mode = KeyValueMode.values()[in.getInt()];
        byte[] word = new byte[EndiannessWord.LENGTH];
        in.get(word);
        EndiannessWord endianness = EndiannessWord.parse(word).orElseThrow();
        int taskCount = in.getInt();
        List<SionTask> tasks = new ArrayList<>(taskCount);
        for (int t = 0; t < taskCount; t++) {
            int index = in.getInt();
            long globalRank = in.getLong();
            int fileNumber = in.getInt();
            int localRank = in.getInt();
            long capacity = in.getLong();
            long firstChunkOffset = in.getLong();
            long globalSkip = in.getLong();
            long[] bytesPerChunk = new long[in.getInt()];
            for (int chunk = 0; chunk < bytesPerChunk.length; chunk++) {
                bytesPerChunk[chunk] = in.getLong();
            }
            tasks.add(new SionTask(index, globalRank, fileNumber, localRank, capacity, firstChunkOffset, globalSkip,
                    bytesPerChunk));
        }
        return new TaskHandout(fileCount, mode, endianness, tasks);
    }

    ByteOrder metadataOrder() {
        return endianness.metadataOrder();
    }
}
