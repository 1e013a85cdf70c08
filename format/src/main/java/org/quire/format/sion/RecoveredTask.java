package org.quire.format.sion;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * What {@link SionRecovery} restored for one task.
 *
 * @param index               the task's index in the set (global order)
 * @param globalRank          the global rank stored for it
 * @param fileNumber          its physical file
 * @param fileWasClosed       its physical file was already closed: its fill levels are those of
 *                            its META2, left as they were, and its journal was not read
 * @param bytesPerChunk       fill level of each chunk it now has in META2 (at least one entry)
 * @param journalRecords      journal records whose fill levels were applied: every valid record
 *                            of the task, or with {@link SionRecoveryMode#FLUSHED_ONLY} those up
 *                            to its last forced one (0 if the file was closed)
 * @param damagedRecordOffset offset in the journal of the record that ended the task's journal
 *                            because it was torn or damaged; empty if it ended at an unused slot
 * @param bytesCutToRecordBoundary in key-value mode, bytes the journal recorded behind the end of
 *                            the task's last complete record (a record the writer was inside
 *                            when it died), left out so that the stream ends at a record
 *                            boundary; always 0 for plain streams and closed files
 */
public record RecoveredTask(int index, long globalRank, int fileNumber, boolean fileWasClosed, long[] bytesPerChunk,
                            long journalRecords, OptionalLong damagedRecordOffset, long bytesCutToRecordBoundary) {

    public RecoveredTask {
        bytesPerChunk = bytesPerChunk.clone();
    }

    @Override
    public long[] bytesPerChunk() {
        return bytesPerChunk.clone();
    }

    public int chunkCount() {
        return bytesPerChunk.length;
    }

    /** Bytes of the task's stream that are readable again. */
    public long totalBytes() {
        return Arrays.stream(bytesPerChunk).sum();
    }
}
