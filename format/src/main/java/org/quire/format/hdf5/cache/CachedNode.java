package org.quire.format.hdf5.cache;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The cache's state for one entry: dirty or clean, how many holders protect it, its flush
 * dependencies both ways, and its place in the recency list. An entry is <em>unsettled</em>
 * while it or anything below it in the dependency graph is dirty; a flush follows only unsettled
 * children, so it never walks clean parts of the graph.
 */
final class CachedNode {

    final CacheEntry entry;
    boolean dirty;
    /**
     * Whether a flushed state of the file may reach the entry's bytes on disk: written by a
     * flush, or read from the file. Such an entry, once dirty, is written only by a flush.
     */
    boolean published;
    int protections;
    /** The {@link MetadataCache} check round in which the entry was last found as the file has it. */
    int checkedRound;
    /** The entry's image, kept once it was compared with the file ({@link MetadataCache#followFile}). */
    byte[] fileImage;
    /** Entries that must be written after this one. Few: usually one. */
    final List<CachedNode> parents = new ArrayList<>(1);
    /** Entries that must be written before this one; made on the first child. */
    private Set<CachedNode> children = Set.of();
    /** Children that are unsettled. */
    int unsettledChildren;
    /** Neighbours in the {@link RecencyList}. */
    CachedNode older;
    CachedNode newer;

    CachedNode(CacheEntry entry, boolean dirty) {
        this.entry = entry;
        this.dirty = dirty;
    }

    long address() {
        return entry.address();
    }

    boolean unsettled() {
        return dirty || unsettledChildren > 0;
    }

    boolean protectedByHolder() {
        return protections > 0;
    }

    Set<CachedNode> children() {
        return children;
    }

    boolean hasChildren() {
        return !children.isEmpty();
    }

    void addChild(CachedNode child) {
        if (children.isEmpty()) {
            children = new HashSet<>();
        }
        children.add(child);
    }

    void removeChild(CachedNode child) {
        children.remove(child);
    }

    @Override
    public String toString() {
        return entry.stage() + " entry at " + entry.address();
    }
}
