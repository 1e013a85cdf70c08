package org.quire.format.sion;

/**
 * One journal record (see {@link SionJournalLayout}): task {@code localTask} had {@code bytes}
 * bytes in its chunk {@code chunk} when it wrote its record number {@code sequence}.
 *
 * @param sequence  1 for a task's first record, then 2, 3, ...
 * @param localTask the task's index in its physical file
 * @param chunk     chunk index
 * @param bytes     fill level of that chunk
 */
public record SionJournalRecord(long sequence, int localTask, long chunk, long bytes) {
}
