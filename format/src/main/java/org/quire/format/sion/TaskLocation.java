package org.quire.format.sion;

/**
 * Where a global task of a multi-file set lives: one entry of the mapping (reference section 2.4).
 *
 * @param fileNumber 0-based index of the physical file in the set
 * @param localRank  index of the task within that file
 */
public record TaskLocation(int fileNumber, int localRank) {
}
