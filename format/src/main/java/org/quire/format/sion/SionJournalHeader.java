package org.quire.format.sion;

/**
 * The header of a recovery journal (see {@link SionJournalLayout}): which physical file of which
 * open it belongs to.
 *
 * @param fileNumber        the physical file's number in its set
 * @param fileCount         physical files in the set
 * @param taskCount         tasks of the physical file
 * @param journalId         random, shared by the journals of all files of one open
 * @param meta1HeadChecksum CRC32C of the physical file's META1 head as written at open
 */
public record SionJournalHeader(int fileNumber, int fileCount, int taskCount, long journalId, int meta1HeadChecksum) {
}
