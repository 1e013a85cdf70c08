package org.quire.format.hdf5;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link Hdf5Verifier} checked in a valid file.
 *
 * @param groups           groups walked, the root included
 * @param datasets         datasets walked
 * @param attributes       attributes decoded, of groups and datasets
 * @param linksNotFollowed soft and external links (their targets are not checked)
 * @param metadataBlocks   checksummed blocks verified, by structure name ("superblock",
 *                         "object header", "fixed array data block page", ...), in name order
 * @param chunks           stored chunks read back through their filter pipeline
 * @param chunkBytes       stored (filtered) bytes of those chunks
 */
public record VerificationReport(Path file, long groups, long datasets, long attributes,
                                 long linksNotFollowed, Map<String, Long> metadataBlocks,
                                 long chunks, long chunkBytes) {

    public VerificationReport {
        metadataBlocks = Collections.unmodifiableMap(new TreeMap<>(metadataBlocks));
    }

    /** All checksummed blocks verified. */
    public long metadataBlockCount() {
        return metadataBlocks.values().stream().mapToLong(Long::longValue).sum();
    }
}
