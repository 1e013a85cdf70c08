package org.quire.format.hdf5;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link Hdf5Verifier} checked in a valid file.
 *
 * @param groups           groups walked, the root included
 * @param datasets         datasets walked
 * @param attributes       attributes decoded, of groups and datasets
 * @param linksNotFollowed soft and external links (their targets are not checked)
 * @param denseMessages    links and attributes read from dense storage (fractal heaps)
 * @param metadataBlocks   checksums verified, by structure name ("superblock",
 *                         "object header", "fractal heap direct block", ...), in name order;
 *                         a block read twice (dense storage: once walking the heap, once for
 *                         its messages) counts twice
 * @param checkedBlocks    blocks without checksum (the old format's superblock, object
 *                         headers, version-1 B-tree nodes, symbol table nodes, local heaps)
 *                         checked for signature, version, sizes and bounds, by structure name
 * @param chunks           stored chunks read back through their filter pipeline
 * @param chunkBytes       stored (filtered) bytes of those chunks
 * @param contiguousBytes  bytes of contiguous and compact datasets whose storage was checked
 *                         (size and place; these data carry no checksum)
 */
public record VerificationReport(Path file, long groups, long datasets, long attributes,
                                 long linksNotFollowed, long denseMessages,
                                 Map<String, Long> metadataBlocks,
                                 Map<String, Long> checkedBlocks, long chunks, long chunkBytes,
                                 long contiguousBytes, long committedDatatypes,
                                 List<Unsupported> unsupported) {

    public VerificationReport {
        unsupported = List.copyOf(unsupported);
        metadataBlocks = Collections.unmodifiableMap(new TreeMap<>(metadataBlocks));
        checkedBlocks = Collections.unmodifiableMap(new TreeMap<>(checkedBlocks));
    }

    /** All blocks without checksum checked. */
    public long checkedBlockCount() {
        return checkedBlocks.values().stream().mapToLong(Long::longValue).sum();
    }

    /** All checksummed blocks verified. */
    public long metadataBlockCount() {
        return metadataBlocks.values().stream().mapToLong(Long::longValue).sum();
    }
}
