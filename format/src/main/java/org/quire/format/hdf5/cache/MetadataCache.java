package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.quire.format.storage.Durability;
import org.quire.format.storage.Storage;

/**
 * The metadata a writer changes, held between flushes: entries keyed by file address, each
 * clean or dirty, protected while a holder uses it, with explicit flush dependencies.
 *
 * <p>Rules (docs/hdf5.md, "Metadata cache and flush order"):
 * <ul>
 * <li>A parent is written only after every entry below it is clean: a flush writes children
 *     first (through clean entries in between too), in {@link FlushStage} order, and a
 *     dependency never points from an earlier stage to a later one nor closes a cycle.</li>
 * <li>With a {@link Durability} that forces, a flush with a journal forces the file (the
 *     chunks its blocks point at), then the journal, then the file once its blocks are in
 *     place; one without forces the file before the first entry of each publishing stage
 *     (object headers, then the superblock) and once at its end.</li>
 * <li>Past {@code maxBytes} (images plus {@link #BOOKKEEPING_BYTES_PER_ENTRY} each), the least
 *     recently used entries go: clean ones at once; dirty metadata ({@link FlushStage#METADATA})
 *     that no flush has published yet (new since the last flush, never read from the file)
 *     written first, which only an entry without children may be, so no parent is ever
 *     written before its children. A block a flushed state reaches is rewritten only by a
 *     flush (through its journal), never alone: a crash cannot leave it newer than its parent
 *     or torn. Protected entries, entries with children, dirty chunk proxies, dirty published
 *     entries and dirty publishing entries stay; when only such are left the cache holds more
 *     than its bound until some become evictable.</li>
 * <li>Evicting a (clean, childless) entry ends its dependencies on its parents: whoever changes
 *     it again states them again ({@link #createFlushDependency} of an existing dependency
 *     changes nothing).</li>
 * </ul>
 *
 * <p>A holder reaches an entry only between {@link #protect} (or {@link #insert} then {@code
 * protect}) and {@link #unprotect}: an unprotected entry may be evicted and reloaded as a new
 * object at any call. Not thread-safe: one writer thread uses it.
 */
public final class MetadataCache {

    /** What the cache charges each entry for its own bookkeeping, on top of the entry's image. */
    public static final int BOOKKEEPING_BYTES_PER_ENTRY = 128;

    private final Storage storage;
    private final long maxBytes;
    private final Durability durability;
    /** Where a flush puts its images before writing any in place; null: none. */
    private final FlushJournal journal;
    private final Map<Long, CachedNode> nodes = new HashMap<>();
    private final Set<CachedNode> dirty = new HashSet<>();
    private final RecencyList recency = new RecencyList();
    /** Whether flushes that do not force go without the journal ({@link #journalOnlyForcedFlushes}). */
    private boolean journalOnlyForced;
    /** Set when a flush failed after its first in-place write: no flush may run again. */
    private IncompleteFlushException incompleteFlush;
    /** Set by {@link #abandon}: the changes since the last flush are given up. */
    private AbandonedChangesException abandoned;
    private long accountedBytes;
    /**
     * Bumped by {@link #followFile}: an entry used in an earlier round is compared with the
     * file before its next use. Stays 0 in a writer's cache.
     */
    private int checkRound;
    private long peakAccountedBytes;
    private int peakEntryCount;

    /**
     * @param storage the file the entries are written to and reloaded from
     * @param maxBytes the memory bound: entry images plus bookkeeping, in bytes
     * @param durability when flushes force the file
     */
    public MetadataCache(Storage storage, long maxBytes, Durability durability) {
        this(storage, maxBytes, durability, null);
    }

    /**
     * A cache whose flushes go through {@code journal} first: every dirty entry's image and a
     * commit record (forced when the durability forces), then the entries in place, then the
     * journal emptied. A crash then leaves the previous flush or, replaying the journal, this
     * one, whatever order the disk kept of the in-place writes.
     */
    public MetadataCache(Storage storage, long maxBytes, Durability durability,
                         FlushJournal journal) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("memory bound must be positive, got " + maxBytes);
        }
        this.storage = storage;
        this.maxBytes = maxBytes;
        this.durability = durability;
        this.journal = journal;
    }

    /**
     * Adds a new entry, dirty (it has never been written) and unprotected.
     *
     * @throws IllegalStateException when the cache holds an entry at its address already
     */
    public void insert(CacheEntry entry) throws IOException {
        requireNotAbandoned();
        if (nodes.containsKey(entry.address())) {
            throw new IllegalStateException("cannot insert " + entry.stage() + " entry at "
                    + entry.address() + ": the cache holds " + nodes.get(entry.address()));
        }
        makeRoom(charge(entry));
        CachedNode node = new CachedNode(entry, true);
        add(node);
        dirty.add(node);
    }

    /** {@link #insert} then {@link #protect}: a new entry its holder uses at once. */
    public <T extends CacheEntry> T insertProtected(T entry) throws IOException {
        insert(entry);
        nodes.get(entry.address()).protections++;
        return entry;
    }

    /**
     * The entry at {@code address}, loaded with {@code loader} when the cache does not hold it,
     * protected from eviction until as many {@link #unprotect} calls as {@code protect} calls.
     */
    public <T extends CacheEntry> T protect(long address, Class<T> type,
            EntryLoader<? extends T> loader) throws IOException {
        requireNotAbandoned();
        CachedNode node = nodes.get(address);
        if (node != null && node.checkedRound != checkRound && !stillInFile(node)) {
            evict(node);
            node = null;
        }
        if (node == null) {
            T loaded = loader.load(address, storage);
            if (loaded.address() != address) {
                throw new IllegalStateException("loader for " + address
                        + " returned an entry at " + loaded.address());
            }
            makeRoom(charge(loaded));
            node = new CachedNode(loaded, false);
            node.published = true;
            add(node);
        } else {
            recency.touch(node);
        }
        T entry = type.cast(node.entry);
        node.protections++;
        return entry;
    }

    /**
     * For an SWMR reader's cache, after the writer may have rewritten blocks in place (a
     * refresh): every entry held is compared with the file before its next use, kept when the
     * file holds exactly its image and dropped (read again, verified) otherwise. A block a
     * writer rewrote, extended or replaced is read again; one it left alone is not decoded
     * again. Every holder of an entry is done with it (the reader drops its index view, which
     * may hold blocks protected for its life). Only for a cache nothing is written through (no
     * dirty entries, no dependencies).
     *
     * @throws IllegalStateException the cache holds a dirty entry or a flush dependency
     */
    public void followFile() {
        for (CachedNode node : nodes.values()) {
            if (node.dirty || node.hasChildren() || !node.parents.isEmpty()) {
                throw new IllegalStateException("a cache with changes of its own cannot follow "
                        + "the file: " + node);
            }
        }
        for (CachedNode node : nodes.values()) {
            node.protections = 0;
        }
        checkRound++;
    }

    /**
     * Whether the file holds {@code node}'s image now: one read of its size at its address. An
     * entry whose image is not what Quire encodes from its value (another writer's bytes in
     * unused space) counts as changed.
     */
    private boolean stillInFile(CachedNode node) throws IOException {
        if (node.fileImage == null) {
            node.fileImage = image(node);
        }
        ByteBuffer now = ByteBuffer.allocate(node.fileImage.length);
        boolean same = storage.readFully(now, node.address())
                && Arrays.equals(now.array(), node.fileImage);
        if (same) {
            node.checkedRound = checkRound;
        }
        return same;
    }

    /** Ends one protection of {@code entry}; it may be evicted once none is left. */
    public void unprotect(CacheEntry entry) throws IOException {
        held(entry).protections--;
        makeRoom(0);
    }

    /** Records that a holder changed {@code entry}, which it protects: the next flush writes it. */
    public void markDirty(CacheEntry entry) {
        setDirty(held(entry), true);
    }

    /**
     * Records that the chunk store wrote the chunk {@code address}'s proxy stands for: the
     * entries depending on it may now be written.
     */
    public void chunkWritten(long address) throws IOException {
        CachedNode node = nodes.get(address);
        if (node == null || node.entry.stage() != FlushStage.RAW_DATA) {
            throw new IllegalStateException("no chunk proxy at " + address + " in the cache"
                    + (node == null ? "" : ", but " + node));
        }
        setDirty(node, false);
        makeRoom(0);
    }

    /**
     * From now on {@code parentAddress} is written only after {@code childAddress} and everything
     * below it are clean. Stating an existing dependency again changes nothing.
     *
     * @throws FlushDependencyCycleException when the parent is already below the child
     * @throws FlushDependencyException when either entry is not in the cache, the child's stage
     *         is later than the parent's or the parent is a chunk proxy
     */
    public void createFlushDependency(long parentAddress, long childAddress) {
        CachedNode parent = dependencyEnd(parentAddress, "parent", childAddress);
        CachedNode child = dependencyEnd(childAddress, "child", parentAddress);
        if (parent.entry.stage() == FlushStage.RAW_DATA) {
            throw new FlushDependencyException("a chunk proxy cannot be a flush dependency"
                    + " parent: " + parent + " of " + child);
        }
        if (child.entry.stage().compareTo(parent.entry.stage()) > 0) {
            throw new FlushDependencyException(child + " cannot be written before " + parent
                    + ": flush stage " + child.entry.stage() + " comes after "
                    + parent.entry.stage());
        }
        if (parent.children().contains(child)) {
            return;
        }
        // Only a child with children of its own can be above its new parent.
        List<Long> cycle = parent == child || child.hasChildren()
                ? cycleThrough(parent, child) : null;
        if (cycle != null) {
            throw new FlushDependencyCycleException(cycle);
        }
        parent.addChild(child);
        child.parents.add(parent);
        if (child.unsettled()) {
            changeUnsettledChildren(parent, 1);
        }
    }

    /**
     * Ends the dependency of {@code parentAddress} on {@code childAddress}.
     *
     * @throws FlushDependencyException when there is no such dependency
     */
    public void destroyFlushDependency(long parentAddress, long childAddress) {
        CachedNode parent = dependencyEnd(parentAddress, "parent", childAddress);
        CachedNode child = dependencyEnd(childAddress, "child", parentAddress);
        if (!parent.children().contains(child)) {
            throw new FlushDependencyException("no flush dependency of " + parent + " on "
                    + child + " to destroy");
        }
        parent.removeChild(child);
        child.parents.remove(parent);
        if (child.unsettled()) {
            changeUnsettledChildren(parent, -1);
        }
    }

    /**
     * Writes every dirty entry, children first, forcing the file as {@link
     * Durability#forcesAtFlush()} says.
     *
     * @throws IllegalStateException (before writing anything) when a chunk proxy's chunk is not
     *         written yet
     */
    public void flush() throws IOException {
        flush(durability.forcesAtFlush());
    }

    /** {@link #flush()}, forcing the file when {@code force} is set (this flush alone). */
    public void flush(boolean force) throws IOException {
        flush(force, false);
    }

    /**
     * From now on a flush that does not force the file writes no journal (an SWMR writer's,
     * after its switch): its blocks are written children first, and no block a flushed state
     * reaches is rewritten so that a reader of that state would misread it (docs/hdf5.md, "SWMR
     * writing"), so every prefix of its writes is a state SWMR readers may see anyway, and a
     * killed writer leaves each dataset at its last flush or the one in progress. Without a
     * force a power failure is not survived in any case; a forcing flush still goes through the
     * journal, which repairs blocks a power failure tears.
     */
    public void journalOnlyForcedFlushes() {
        journalOnlyForced = true;
    }

    /** When this cache's flushes force the file. */
    public Durability durability() {
        return durability;
    }

    /** The last flush before the file closes, forcing as {@link Durability#forcesAtClose()}. */
    public void flushForClose() throws IOException {
        flush(durability.forcesAtClose(), true);
    }

    /**
     * Fails when an earlier flush failed after it had begun writing in place, or the changes
     * since the last flush were {@linkplain #abandon abandoned}: the file must then be
     * recovered, and nothing more may be written over it.
     *
     * @throws IncompleteFlushException naming the file and the journal to replay
     * @throws AbandonedChangesException naming the file and the operation that failed
     */
    public void requireNoIncompleteFlush() throws IOException {
        if (incompleteFlush != null) {
            throw incompleteFlush;
        }
        requireNotAbandoned();
    }

    /**
     * Gives up every change since the last flush after {@code operation} (a phrase) failed
     * part-way with {@code cause}, leaving the file as a writer killed now would: from here on
     * every flush, {@link #insert} and {@link #protect} throws {@link AbandonedChangesException},
     * so nothing more is written and no half-changed entry is read. The first abandonment is
     * the one reported.
     */
    public void abandon(String operation, Throwable cause) {
        if (abandoned == null) {
            abandoned = new AbandonedChangesException(storage.path(), operation, cause);
        }
    }

    /** Fails once the changes since the last flush were {@linkplain #abandon abandoned}. */
    public void requireNotAbandoned() throws AbandonedChangesException {
        if (abandoned != null) {
            throw abandoned;
        }
    }

    /** Whether {@code parentAddress} is written only after {@code childAddress} (directly). */
    public boolean dependsOn(long parentAddress, long childAddress) {
        CachedNode parent = nodes.get(parentAddress);
        CachedNode child = nodes.get(childAddress);
        return parent != null && child != null && parent.children().contains(child);
    }

    public boolean contains(long address) {
        return nodes.containsKey(address);
    }

    /** Whether the cache holds the entry at {@code address}, changed since it was last written. */
    public boolean isDirty(long address) {
        CachedNode node = nodes.get(address);
        return node != null && node.dirty;
    }

    public int entryCount() {
        return nodes.size();
    }

    public int dirtyCount() {
        return dirty.size();
    }

    /** Bytes charged for the entries held: their images plus bookkeeping. */
    public long accountedBytes() {
        return accountedBytes;
    }

    /** The most {@link #accountedBytes()} ever reached. */
    public long peakAccountedBytes() {
        return peakAccountedBytes;
    }

    /** The most entries ever held at once. */
    public int peakEntryCount() {
        return peakEntryCount;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /**
     * A failure before the first in-place write leaves the file at the previous flush (the
     * journal is rewritten whole by the next one), so the flush may be tried again; one after
     * it leaves the in-place blocks half-written, with the committed journal the only copy of
     * the rest: from then on {@link #requireNoIncompleteFlush} fails, and the journal is never
     * touched again.
     */
    private void flush(boolean force, boolean last) throws IOException {
        requireNoIncompleteFlush();
        List<CachedNode> order = FlushPlan.order(dirty);
        if (!order.isEmpty() && order.get(0).entry.stage() == FlushStage.RAW_DATA) {
            throw new IllegalStateException("cannot flush: the chunk store has not written "
                    + order.get(0).entry + " yet, and metadata may point at it");
        }
        List<FlushJournal.Block> images = new ArrayList<>(order.size());
        for (CachedNode node : order) {
            images.add(new FlushJournal.Block(node.address(), image(node)));
        }
        FlushJournal used = force || !journalOnlyForced ? journal : null;
        if (used != null && !order.isEmpty()) {
            if (force) {
                storage.force(false); // the chunks the journal's blocks point at, first
            }
            FlushJournal.Block lastBlock = images.get(images.size() - 1);
            used.commit(new FlushJournal.Block(lastBlock.address(), FlushJournal.bytesAt(
                    storage, lastBlock.address(), lastBlock.image().length)), images, force);
        }
        try {
            writeInPlace(order, images, used, force, last);
        } catch (IOException | RuntimeException e) {
            incompleteFlush = new IncompleteFlushException(storage.path(),
                    used == null ? null : used.path(), e);
            throw incompleteFlush;
        }
        makeRoom(0);
    }

    private void writeInPlace(List<CachedNode> order, List<FlushJournal.Block> images,
            FlushJournal used, boolean force, boolean last) throws IOException {
        FlushStage forcedBefore = null;
        for (int i = 0; i < order.size(); i++) {
            CachedNode node = order.get(i);
            FlushStage stage = node.entry.stage();
            // With a journal, a crash among the in-place writes is repaired by replaying it.
            if (force && used == null && stage.publishes() && stage != forcedBefore) {
                storage.force(false);
                forcedBefore = stage;
            }
            write(node, images.get(i).image());
            node.published = true;
        }
        if (force) {
            storage.force(false);
        }
        if (used != null && !order.isEmpty()) {
            used.clear(force && last);
        }
    }

    private void write(CachedNode node, byte[] image) throws IOException {
        if (node.unsettledChildren > 0) {
            throw new IllegalStateException("would write " + node + " before "
                    + node.unsettledChildren + " of its children are clean");
        }
        storage.write(ByteBuffer.wrap(image), node.address());
        setDirty(node, false);
    }

    private static byte[] image(CachedNode node) {
        CacheEntry entry = node.entry;
        ByteBuffer image = ByteBuffer.allocate(entry.imageSize());
        entry.encode(image);
        if (image.hasRemaining()) {
            throw new IllegalStateException(node + " encoded " + image.position()
                    + " bytes, its image has " + entry.imageSize());
        }
        return image.array();
    }

    /**
     * Evicts least recently used entries until {@code incoming} more bytes fit, if it can. A
     * pass that evicted something is followed by another: evicting a child may have made an
     * older parent evictable.
     */
    private void makeRoom(long incoming) throws IOException {
        boolean evicted = true;
        while (evicted && accountedBytes + incoming > maxBytes) {
            evicted = false;
            CachedNode candidate = recency.oldest();
            while (candidate != null && accountedBytes + incoming > maxBytes) {
                CachedNode newer = candidate.newer;
                if (evictable(candidate)) {
                    if (candidate.dirty) {
                        write(candidate, image(candidate));
                    }
                    evict(candidate);
                    evicted = true;
                }
                candidate = newer;
            }
        }
    }

    private static boolean evictable(CachedNode node) {
        if (node.protectedByHolder() || node.hasChildren()) {
            return false;
        }
        return !node.dirty || node.entry.stage() == FlushStage.METADATA && !node.published;
    }

    private void add(CachedNode node) {
        node.checkedRound = checkRound;
        nodes.put(node.address(), node);
        recency.addNewest(node);
        accountedBytes += charge(node.entry);
        peakAccountedBytes = Math.max(peakAccountedBytes, accountedBytes);
        peakEntryCount = Math.max(peakEntryCount, nodes.size());
    }

    /** Only for a clean entry without children: nothing is left to order. */
    private void evict(CachedNode node) {
        for (CachedNode parent : node.parents) {
            parent.removeChild(node);
        }
        nodes.remove(node.address());
        recency.remove(node);
        accountedBytes -= charge(node.entry);
    }

    private static long charge(CacheEntry entry) {
        return (long) entry.imageSize() + BOOKKEEPING_BYTES_PER_ENTRY;
    }

    private CachedNode held(CacheEntry entry) {
        CachedNode node = nodes.get(entry.address());
        if (node == null || node.entry != entry) {
            throw new IllegalStateException(entry.stage() + " entry at " + entry.address()
                    + " is not held by the cache (never inserted, or evicted and reloaded"
                    + " since it was unprotected)");
        }
        if (!node.protectedByHolder()) {
            throw new IllegalStateException(node + " is not protected: protect it first");
        }
        return node;
    }

    private CachedNode dependencyEnd(long address, String role, long otherAddress) {
        CachedNode node = nodes.get(address);
        if (node == null) {
            throw new FlushDependencyException("flush dependency " + role + " at " + address
                    + " (the other end at " + otherAddress + ") is not in the cache");
        }
        return node;
    }

    private void setDirty(CachedNode node, boolean isDirty) {
        if (node.dirty == isDirty) {
            return;
        }
        boolean wasUnsettled = node.unsettled();
        node.dirty = isDirty;
        if (isDirty) {
            dirty.add(node);
        } else {
            dirty.remove(node);
        }
        settledChanged(node, wasUnsettled);
    }

    private void changeUnsettledChildren(CachedNode node, int change) {
        boolean wasUnsettled = node.unsettled();
        node.unsettledChildren += change;
        settledChanged(node, wasUnsettled);
    }

    /** Tells the parents when {@code node} turned unsettled or settled; as deep as the graph. */
    private void settledChanged(CachedNode node, boolean wasUnsettled) {
        if (node.unsettled() != wasUnsettled) {
            for (CachedNode parent : node.parents) {
                changeUnsettledChildren(parent, wasUnsettled ? -1 : 1);
            }
        }
    }

    /**
     * The cycle a dependency of {@code parent} on {@code child} would close (addresses, each a
     * parent of the next, the last the new parent), or null: there is one when the child is
     * the parent or above it.
     */
    private static List<Long> cycleThrough(CachedNode parent, CachedNode child) {
        Deque<Long> path = new ArrayDeque<>();
        if (!pathUp(parent, child, new HashSet<>(), path)) {
            return null;
        }
        List<Long> cycle = new ArrayList<>(path);
        Collections.reverse(cycle);
        return cycle;
    }

    /** Whether {@code target} is {@code node} or above it; {@code path} then leads to it. */
    private static boolean pathUp(CachedNode node, CachedNode target, Set<CachedNode> visited,
            Deque<Long> path) {
        path.addLast(node.address());
        if (node == target) {
            return true;
        }
        if (visited.add(node)) {
            for (CachedNode parent : node.parents) {
                if (pathUp(parent, target, visited, path)) {
                    return true;
                }
            }
        }
        path.removeLast();
        return false;
    }
}
