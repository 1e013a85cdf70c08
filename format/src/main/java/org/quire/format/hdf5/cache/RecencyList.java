package org.quire.format.hdf5.cache;

/**
 * The cache's entries from least to most recently used (a doubly linked list through the
 * nodes): eviction looks at the oldest first.
 */
final class RecencyList {

    private CachedNode oldest;
    private CachedNode newest;

    /** The least recently used entry, or null when empty; follow {@code newer} from there. */
    CachedNode oldest() {
        return oldest;
    }

    void addNewest(CachedNode node) {
        node.older = newest;
        node.newer = null;
        if (newest == null) {
            oldest = node;
        } else {
            newest.newer = node;
        }
        newest = node;
    }

    void remove(CachedNode node) {
        if (node.older == null) {
            oldest = node.newer;
        } else {
            node.older.newer = node.newer;
        }
        if (node.newer == null) {
            newest = node.older;
        } else {
            node.newer.older = node.older;
        }
        node.older = null;
        node.newer = null;
    }

    void touch(CachedNode node) {
        if (node != newest) {
            remove(node);
            addNewest(node);
        }
    }
}
