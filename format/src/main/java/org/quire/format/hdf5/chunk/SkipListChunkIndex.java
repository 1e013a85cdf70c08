package org.quire.format.hdf5.chunk;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.SkipListConfiguration;
import org.quire.format.hdf5.layout.SkipListGeometry;
import org.quire.format.hdf5.layout.SkipListSupernode;
import org.quire.format.hdf5.layout.SkipListTail;

/**
 * Quire's deterministic reverse skip list chunk index (docs/hdf5.md, "The skip list chunk
 * index"), for datasets with one unlimited dimension whose chunks are appended in order. It is
 * keyed implicitly by the chunk number; supernodes hold the records of K consecutive chunks
 * and link back, per level, to the nearest supernode to their left that is tall enough
 * ({@link SkipListGeometry}); the tail holds the chunk count and the rightmost supernode per
 * level, and is the commit point: an append writes its supernode, then the tail.
 *
 * <p>Lookups start at the tail and walk back, dropping a level whenever the next step would
 * pass the wanted supernode: logarithmic in the distance from the end. Forward iteration
 * follows the same back links with an explicit stack of at most one node per level and reads
 * every supernode once when the maximum height covers the list (top-level supernodes are
 * re-read when it does not). A write past the end creates every supernode up to it (records
 * unwritten): the index suits appends, not sparse writes far ahead.
 *
 * <p>Blocks are metadata cache entries. The configuration node points at the tail and the
 * ghost supernode and depends on both; the tail, held for the index's life when writable,
 * depends on every supernode an append changed or created, so a flush writes the supernodes
 * first and the tail after them.
 */
public final class SkipListChunkIndex implements ChunkIndex {

    /**
     * Most supernodes one write may create past the end (2^16: 4 Mi chunks of 64, 35 MB of
     * supernodes): a write further ahead is refused rather than filling the file with empty
     * supernodes.
     */
    public static final long MAX_SUPERNODES_CREATED_AT_ONCE = 1 << 16;

    private final IndexBlocks blocks;
    private final ChunkGrid grid;
    private final long configurationAddress;
    private final SkipListConfiguration configuration;
    private final SkipListGeometry geometry;
    private final ChunkRecordFormat format;
    private final long unfilteredChunkSize;
    private long chunkCount;
    /** The tail's links: rightmost supernode address per level (the ghost's where none). */
    private long[] rightmost;
    /** The tail of a writable index (its value is this index), null when read only. */
    private BlockEntry<SkipListChunkIndex> tail;

    private SkipListChunkIndex(IndexBlocks blocks, ChunkGrid grid, long configurationAddress,
                               SkipListConfiguration configuration, long unfilteredChunkSize) {
        this.blocks = blocks;
        this.grid = grid;
        this.configurationAddress = configurationAddress;
        this.configuration = configuration;
        this.geometry = configuration.geometry();
        this.format = configuration.format();
        this.unfilteredChunkSize = unfilteredChunkSize;
    }

    /** Allocates a new, empty index: configuration node, tail and ghost supernode. */
    static SkipListChunkIndex create(IndexBlocks blocks, ChunkRecordFormat format,
                                     ChunkGrid grid, SkipListGeometry geometry,
                                     long unfilteredChunkSize) throws IOException {
        BlockFile file = blocks.file();
        long configurationAddress = file.allocate(SkipListConfiguration.SIZE);
        int tailSize = SkipListTail.size(geometry);
        long tailAddress = SkipListTail.allocate(file, geometry);
        int ghostSize = SkipListSupernode.size(geometry, format, SkipListGeometry.GHOST);
        long ghostAddress = file.allocate(ghostSize);
        SkipListConfiguration configuration = new SkipListConfiguration(format, geometry,
                tailAddress, ghostAddress);
        SkipListChunkIndex index = new SkipListChunkIndex(blocks, grid, configurationAddress,
                configuration, unfilteredChunkSize);
        index.rightmost = new long[geometry.maxHeight()];
        Arrays.fill(index.rightmost, ghostAddress);
        BlockEntry<SkipListConfiguration> node = blocks.create(configurationAddress,
                SkipListConfiguration.SIZE, configuration, SkipListConfiguration::encode);
        BlockEntry<SkipListSupernode> ghost = blocks.create(ghostAddress, ghostSize,
                SkipListSupernode.ghost(geometry), index::encodeSupernode);
        index.tail = blocks.create(tailAddress, tailSize, index, SkipListChunkIndex::encodeTail);
        blocks.dependsOn(node, index.tail);
        blocks.dependsOn(node, ghost);
        blocks.unprotect(ghost);
        blocks.unprotect(node);
        return index;
    }

    /**
     * Opens the index whose configuration node is at {@code address}; a {@code writable} one
     * holds its tail as a cache entry, which changes with every append.
     */
    static SkipListChunkIndex open(IndexBlocks blocks, long address, ChunkGrid grid,
                                   ChunkIndexParameters.SkipList expected,
                                   long unfilteredChunkSize, boolean filtered, boolean writable)
            throws IOException {
        BlockFile file = blocks.file();
        SkipListConfiguration configuration = SkipListConfiguration.read(file, address);
        String structure = SkipListConfiguration.IDENTITY.structure();
        SkipListGeometry geometry = configuration.geometry();
        if (geometry.supernodeBits() != expected.supernodeBits()
                || geometry.maxHeight() != expected.maxHeight()) {
            throw new CorruptFileException(file.path(), address, structure,
                    "supernode bits and max height", expected + " (from the data layout message)",
                    geometry.toString());
        }
        if (configuration.format().filtered() != filtered) {
            throw new CorruptFileException(file.path(), address, structure, "client ID",
                    filtered ? "1 (filtered chunks)" : "0 (unfiltered chunks)",
                    Integer.toString(configuration.format().clientId()));
        }
        SkipListChunkIndex index = new SkipListChunkIndex(blocks, grid, address, configuration,
                unfilteredChunkSize);
        long tailAddress = configuration.tailAddress();
        SkipListTail stored = SkipListTail.read(file, tailAddress, geometry);
        index.chunkCount = stored.chunkCount();
        index.rightmost = stored.rightmost();
        if (writable) {
            index.tail = blocks.protect(tailAddress, SkipListTail.size(geometry), () -> index,
                    SkipListChunkIndex::encodeTail);
        }
        return index;
    }

    private byte[] encodeTail() {
        return new SkipListTail(chunkCount, rightmost).encode(geometry);
    }

    private byte[] encodeSupernode(SkipListSupernode supernode) {
        return supernode.encode(geometry, format);
    }

    @Override
    public ChunkIndexParameters parameters() {
        return new ChunkIndexParameters.SkipList(geometry.supernodeBits(), geometry.maxHeight());
    }

    @Override
    public long address() {
        return configurationAddress;
    }

    /** Chunks the index holds: the tail's count (chunk numbers 0 to count - 1). */
    public long chunkCount() {
        return chunkCount;
    }

    public SkipListGeometry geometry() {
        return geometry;
    }

    @Override
    public ChunkRecord get(long[] scaled) throws IOException {
        long chunk = grid.linearIndex(scaled);
        if (chunk >= chunkCount) {
            return ChunkRecord.UNWRITTEN;
        }
        BlockEntry<SkipListSupernode> supernode = find(geometry.supernodeOf(chunk));
        try {
            return supernode.value().records()[geometry.slotOf(chunk)];
        } finally {
            blocks.unprotect(supernode);
        }
    }

    @Override
    public void put(long[] scaled, ChunkRecord record) throws IOException {
        long chunk = grid.linearIndex(scaled);
        long wanted = geometry.supernodeOf(chunk);
        long existing = geometry.supernodes(chunkCount);
        if (tail == null) {
            throw new IllegalStateException("skip list index at " + configurationAddress
                    + " was opened read only");
        }
        if (wanted - existing >= MAX_SUPERNODES_CREATED_AT_ONCE) {
            throw new IllegalArgumentException("chunk " + chunk + " is " + (chunk - chunkCount)
                    + " chunks past the end of the skip list index, which holds appended "
                    + "chunks: at most " + MAX_SUPERNODES_CREATED_AT_ONCE * (1L
                    << geometry.supernodeBits()) + " chunks ahead are written at once");
        }
        BlockEntry<SkipListSupernode> supernode = null;
        try {
            for (long ordinal = existing; ordinal <= wanted; ordinal++) {
                if (supernode != null) {
                    blocks.unprotect(supernode);
                }
                supernode = append(ordinal);
            }
            if (supernode == null) {
                supernode = find(wanted);
            }
            supernode.value().records()[geometry.slotOf(chunk)] = record;
            blocks.changed(supernode);
            blocks.dependsOnChunk(supernode, record);
            if (chunk >= chunkCount) {
                chunkCount = chunk + 1;
                blocks.changed(tail);
                blocks.dependsOn(tail, supernode);
            }
        } finally {
            if (supernode != null) {
                blocks.unprotect(supernode);
            }
        }
    }

    /**
     * Creates supernode {@code ordinal}, the one after the last, linked back through the
     * tail's links, which then point at it on each of its levels; protected.
     */
    private BlockEntry<SkipListSupernode> append(long ordinal) throws IOException {
        int height = geometry.height(ordinal);
        int size = SkipListSupernode.size(geometry, format, ordinal);
        long[] links = Arrays.copyOf(rightmost, height);
        BlockEntry<SkipListSupernode> created = blocks.create(blocks.file().allocate(size), size,
                SkipListSupernode.empty(geometry, ordinal, links), this::encodeSupernode);
        for (int level = 0; level < height; level++) {
            rightmost[level] = created.address();
        }
        blocks.changed(tail);
        blocks.dependsOn(tail, created);
        return created;
    }

    /**
     * Supernode {@code target} (below the tail's), protected: from the tail, each step follows
     * the highest link that does not pass it.
     */
    private BlockEntry<SkipListSupernode> find(long target) throws IOException {
        long ordinal = geometry.supernodes(chunkCount);
        long[] links = rightmost;
        BlockEntry<SkipListSupernode> current = null;
        try {
            while (ordinal != target) {
                int level = links.length - 1;
                while (geometry.predecessor(ordinal, level) < target) {
                    level--;
                }
                long next = geometry.predecessor(ordinal, level);
                BlockEntry<SkipListSupernode> step = supernode(links[level], next);
                if (current != null) {
                    blocks.unprotect(current);
                }
                current = step;
                ordinal = next;
                links = current.value().links();
            }
            BlockEntry<SkipListSupernode> found = current;
            current = null;
            return found;
        } finally {
            if (current != null) {
                blocks.unprotect(current);
            }
        }
    }

    /** Supernode {@code ordinal} at {@code address}, read (and verified) on a miss; protected. */
    private BlockEntry<SkipListSupernode> supernode(long address, long ordinal)
            throws IOException {
        BlockFile file = blocks.file();
        return blocks.protect(address, SkipListSupernode.size(geometry, format, ordinal),
                () -> SkipListSupernode.read(file, address, ordinal, geometry, format,
                        unfilteredChunkSize), this::encodeSupernode);
    }

    /**
     * Visits the chunks in order: the ghost, then, from the tail, what lies left of each link
     * before the link's target, on an explicit stack of at most 64 nodes (one per level of a
     * list of 2^62 supernodes; see {@link Frame}). Every link is checked: when a supernode is
     * visited, all supernodes left of it have been, so the address each of its links must hold
     * (the last visited supernode tall enough, or the ghost) is known.
     */
    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        BlockEntry<SkipListSupernode> ghost = supernode(configuration.ghostAddress(),
                SkipListGeometry.GHOST);
        blocks.unprotect(ghost);
        long[] lastPerLevel = new long[geometry.maxHeight()];
        Arrays.fill(lastPerLevel, configuration.ghostAddress());
        Deque<Frame> path = new ArrayDeque<>();
        path.push(new Frame(geometry.supernodes(chunkCount), null, rightmost,
                SkipListGeometry.GHOST, Long.SIZE - 2));
        try {
            while (!path.isEmpty()) {
                Frame frame = path.peek();
                if (frame.level < 0) {
                    path.pop();
                    if (frame.entry != null) {
                        try {
                            visit(frame.entry, lastPerLevel, visitor);
                        } finally {
                            blocks.unprotect(frame.entry);
                        }
                        path.peek().done = frame.ordinal;
                    }
                    continue;
                }
                int level = frame.level--;
                long target = geometry.predecessor(frame.ordinal, level);
                if (target > frame.done) {
                    BlockEntry<SkipListSupernode> left = leftOf(frame, level, target);
                    path.push(new Frame(target, left, left.value().links(), frame.done,
                            level - 1));
                }
            }
        } finally {
            for (Frame frame : path) {
                if (frame.entry != null) {
                    blocks.unprotect(frame.entry);
                }
            }
        }
        SkipListTail.checkRightmost(blocks.file(), configuration.tailAddress(), rightmost,
                lastPerLevel);
    }

    /**
     * A node on the path of forward iteration: supernode {@code ordinal} (or the tail, with no
     * entry), whose supernodes after {@code done} are still to be visited, at levels {@code
     * level} and below. A node is pushed for the target of a level-l link and only its levels
     * below l lead past {@code done}, so the stack holds at most one node per level.
     */
    private static final class Frame {
        final long ordinal;
        final BlockEntry<SkipListSupernode> entry;
        final long[] links;
        long done;
        int level;

        Frame(long ordinal, BlockEntry<SkipListSupernode> entry, long[] links, long done,
              int level) {
            this.ordinal = ordinal;
            this.entry = entry;
            this.links = links;
            this.done = done;
            this.level = level;
        }
    }

    /**
     * Supernode {@code target}, the level-{@code level} predecessor of {@code frame}'s node,
     * protected. At or above the top level the list has no such link: the walk follows top
     * links from the node, each supernode on it tall enough, one hop per 2^(maxHeight - 1)
     * supernodes, which re-reads top-level supernodes (about log2 of the list's length times
     * each) when the list is longer than its height covers.
     */
    private BlockEntry<SkipListSupernode> leftOf(Frame frame, int level, long target)
            throws IOException {
        int top = geometry.maxHeight() - 1;
        if (level < top) {
            return supernode(frame.links[level], target);
        }
        long ordinal = geometry.predecessor(frame.ordinal, top);
        BlockEntry<SkipListSupernode> step = supernode(frame.links[top], ordinal);
        while (ordinal > target) {
            long address = step.value().links()[top];
            blocks.unprotect(step);
            ordinal = geometry.predecessor(ordinal, top);
            step = supernode(address, ordinal);
        }
        return step;
    }

    /**
     * Visits {@code entry}'s stored chunks, after checking its links against {@code
     * lastPerLevel} (the last supernode visited per level, or the ghost), which it then
     * replaces on its levels.
     */
    private void visit(BlockEntry<SkipListSupernode> entry, long[] lastPerLevel,
                       StoredChunkVisitor visitor) throws IOException {
        SkipListSupernode node = entry.value();
        for (int level = 0; level < node.links().length; level++) {
            node.checkLink(blocks.file(), entry.address(), level, lastPerLevel[level]);
            lastPerLevel[level] = entry.address();
        }
        ChunkRecord[] records = node.records();
        long first = geometry.firstChunk(node.ordinal());
        int stored = (int) Math.min(records.length, chunkCount - first);
        grid.forEachWritten(Arrays.copyOf(records, stored), first, visitor);
    }
}
