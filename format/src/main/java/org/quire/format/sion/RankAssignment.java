package org.quire.format.sion;

import java.nio.ByteBuffer;

/**
 * What a rank learns at a parallel open for write: its place in the file set and its chunks
 * (SIONlib scatters start pointer and capacity and broadcasts globalskip, reference section 3.1).
 *
 * @param fileNumber    physical file of the rank
 * @param fileTaskCount tasks in that file (the row width of its recovery journal)
 * @param localRank     the rank's task index in that file; local rank 0 owns the file's metadata
 * @param taskStart     offset of the rank's chunk 0
 * @param chunkCapacity capacity of each of its chunks
 * @param globalSkip    distance between its chunks
 * @param fsBlockSize   alignment used
 * @param journalId     random id of this open, stored in every recovery journal of the set
 * @param meta1Head     for local rank 0: META1 up to the tail, to write at open; empty otherwise
 * @param collector     in collective mode, the rank that writes this rank's data; -1 otherwise
 * @param collectors    in collective mode, every collector rank in ascending order; empty otherwise
 */
record RankAssignment(int fileNumber, int fileTaskCount, int localRank, long taskStart, long chunkCapacity,
                      long globalSkip, int fsBlockSize, long journalId, byte[] meta1Head, int collector,
                      int[] collectors) {

    boolean ownsFileMetadata() {
        return localRank == 0;
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(4 + 4 + 4 + 8 + 8 + 8 + 4 + 8 + 4 + meta1Head.length + 4 + 4
                + 4 * collectors.length).putInt(fileNumber)
                .putInt(fileTaskCount).putInt(localRank).putLong(taskStart).putLong(chunkCapacity).putLong(globalSkip)
                .putInt(fsBlockSize).putLong(journalId).putInt(meta1Head.length).put(meta1Head)
                .putInt(collector).putInt(collectors.length);
        out.asIntBuffer().put(collectors);
        return out.array();
    }

    static RankAssignment decode(byte[] encoded) {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        int fileNumber = in.getInt();
        int fileTaskCount = in.getInt();
        int localRank = in.getInt();
        long taskStart = in.getLong();
        long chunkCapacity = in.getLong();
        long globalSkip = in.getLong();
        int fsBlockSize = in.getInt();
        long journalId = in.getLong();
        byte[] head = new byte[in.getInt()];
        in.get(head);
        int collector = in.getInt();
        int[] collectors = new int[in.getInt()];
        in.asIntBuffer().get(collectors);
        return new RankAssignment(fileNumber, fileTaskCount, localRank, taskStart, chunkCapacity, globalSkip, fsBlockSize,
                journalId, head, collector, collectors);
    }
}
