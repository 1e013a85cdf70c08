package org.quire.format.hdf5.chunk;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Decoded chunks of one dataset kept in memory, as libhdf5's raw data chunk cache (H5Dchunk.c)
 * keeps them: at most {@code maxBytes} bytes of chunks in a table of {@code slots} slots, each
 * slot holding at most one chunk. A chunk's slot is its {@link ChunkGrid#linearIndex linear
 * index} modulo the number of slots (with several unlimited dimensions, where chunks have no
 * linear index, a hash of its coordinates).
 *
 * <p>Preemption: a chunk put in an occupied slot evicts the chunk there; then, while the chunks
 * held exceed {@code maxBytes}, the least recently used one is evicted. A chunk larger than
 * {@code maxBytes} is not kept at all. (libhdf5 also evicts on a slot collision but, among the
 * others, prefers chunks that were read or written whole; Quire keeps plain recency.) Chunks are
 * never dirty here: writers store a chunk before putting it, so evicting one only forgets it.
 */
public final class ChunkCache {

    private static final class Entry {
        final long[] scaled;
        final int slot;
        final byte[] chunk;
        Entry newer;
        Entry older;

        Entry(long[] scaled, int slot, byte[] chunk) {
            this.scaled = scaled;
            this.slot = slot;
            this.chunk = chunk;
        }
    }

    private final ChunkGrid grid;
    private final long maxBytes;
    private final Entry[] table;
    private long bytes;
    private int count;
    /** Most and least recently used entries of the recency list. */
    private Entry newest;
    private Entry oldest;

    /**
     * @throws IllegalArgumentException {@code maxBytes} or {@code slots} is negative
     */
    public ChunkCache(ChunkGrid grid, long maxBytes, int slots) {
        if (maxBytes < 0 || slots < 0) {
            throw new IllegalArgumentException("chunk cache of " + maxBytes + " bytes and "
                    + slots + " slots");
        }
        this.grid = grid;
        this.maxBytes = maxBytes;
        this.table = new Entry[slots];
    }

    /** The chunk at {@code scaled}, or null if it is not held. */
    public byte[] get(long[] scaled) {
        Entry entry = find(scaled);
        if (entry == null) {
            return null;
        }
        unlink(entry);
        linkNewest(entry);
        return entry.chunk;
    }

    /**
     * Holds {@code chunk}, the decoded chunk at {@code scaled}, in place of any earlier version,
     * evicting as described above; the caller must not change the array afterwards.
     */
    public void put(long[] scaled, byte[] chunk) {
        remove(scaled);
        if (table.length == 0 || chunk.length > maxBytes) {
            return;
        }
        int slot = slot(scaled);
        if (table[slot] != null) {
            evict(table[slot]);
        }
        while (bytes + chunk.length > maxBytes) {
            evict(oldest);
        }
        Entry entry = new Entry(scaled.clone(), slot, chunk);
        table[slot] = entry;
        linkNewest(entry);
        bytes += chunk.length;
        count++;
    }

    /** Forgets the chunk at {@code scaled}; returns it, or null if it was not held. */
    public byte[] remove(long[] scaled) {
        Entry entry = find(scaled);
        if (entry == null) {
            return null;
        }
        evict(entry);
        return entry.chunk;
    }

    /** Forgets every chunk whose coordinates {@code test} accepts. */
    public void removeIf(Predicate<long[]> test) {
        Entry entry = oldest;
        while (entry != null) {
            Entry newer = entry.newer;
            if (test.test(entry.scaled)) {
                evict(entry);
            }
            entry = newer;
        }
    }

    /** Bytes of the chunks held. */
    public long bytes() {
        return bytes;
    }

    /** Number of chunks held. */
    public int count() {
        return count;
    }

    private Entry find(long[] scaled) {
        if (table.length == 0) {
            return null;
        }
        Entry entry = table[slot(scaled)];
        return entry != null && Arrays.equals(entry.scaled, scaled) ? entry : null;
    }

    private int slot(long[] scaled) {
        long hash = grid.hasLinearIndex() ? grid.linearIndex(scaled) : Arrays.hashCode(scaled);
        return (int) Math.floorMod(hash, (long) table.length);
    }

    private void evict(Entry entry) {
        table[entry.slot] = null;
        unlink(entry);
        bytes -= entry.chunk.length;
        count--;
    }

    private void linkNewest(Entry entry) {
        entry.older = newest;
        entry.newer = null;
        if (newest != null) {
            newest.newer = entry;
        }
        newest = entry;
        if (oldest == null) {
            oldest = entry;
        }
    }

    private void unlink(Entry entry) {
        if (entry.newer != null) {
            entry.newer.older = entry.older;
        } else {
            newest = entry.older;
        }
        if (entry.older != null) {
            entry.older.newer = entry.newer;
        } else {
            oldest = entry.newer;
        }
        entry.newer = null;
        entry.older = null;
    }
}
