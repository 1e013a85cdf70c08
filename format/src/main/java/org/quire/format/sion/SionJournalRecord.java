package org.quire.format.sion;

/**
 * One journal record (see {@link SionJournalLayout}): task {@code localTask} had {@code bytes}
 * bytes in its chunk {@code chunk} when it wrote its record number {@code sequence}.
 *
 * @param sequence  1 for a task's first record, then 2, 3, ...
 * @param localTask the task's index in its physical file (0 .. 2^31-1)
 * @param chunk     chunk index
 * @param bytes     fill level of that chunk
 * @param forced    written by {@code flush()} after the task's data was forced to stable storage
 *                  (and itself forced); false for a record written when the task left a chunk
 */
public record SionJournalRecord(long sequence, int localTask, long chunk, long bytes, boolean forced) {

    public SionJournalRecord {
        if (localTask < 0) {
            throw new IllegalArgumentException("local task " + localTask + " is negative");
        }
    }
}
