package org.quire.format.sion;

/**
 * Which records of the recovery journal {@link SionRecovery} trusts (see {@link SionJournalLayout}:
 * every record says whether {@code flush()} forced the data before it).
 */
public enum SionRecoveryMode {

    /**
     * Every valid record. Right for a job whose processes died (killed, crashed, out of memory)
     * while the operating system kept running: its page cache holds every record and the data
     * written before it. Keeps the chunk ends a task reached after its last flush.
     */
    EVERY_RECORD,

    /**
     * Only records that {@code flush()} wrote after forcing the data, and the records before
     * them; each task ends at its last flush. Right after a power failure or an operating system
     * crash, when a chunk-end record, which is not forced, may have reached the disk before the
     * data it describes: trusting it would present whatever the disk held there (zeros) as data.
     */
    FLUSHED_ONLY
}
