package org.quire.format.hdf5.layout;

/**
 * The arithmetic of Quire's deterministic reverse skip list chunk index (docs/hdf5.md, "The
 * skip list chunk index", section S.1): which supernode holds a chunk, how tall each supernode
 * is, and which supernode each of its links points back at. Nothing here is stored: a reader
 * derives it from the two creation parameters, so links can be checked, not only followed.
 *
 * <p>Chunks are numbered 0, 1, 2, ... ({@code ChunkGrid#linearIndex}); supernode {@code s}
 * holds chunks {@code s * K} to {@code s * K + K - 1} ({@code K = 2^supernodeBits}). Its height
 * is one plus the number of trailing zero bits of {@code s + 1}, at most {@code maxHeight}; its
 * link at level {@code l} (below its height) points at the nearest supernode to its left whose
 * height exceeds {@code l}, which is {@link #predecessor}; with none, at the ghost supernode
 * (ordinal -1). The tail behaves as the supernode after the last one, of full height.
 */
public record SkipListGeometry(int supernodeBits, int maxHeight) {

    /** Quire's defaults: 64 chunk records per supernode, links on up to 32 levels. */
    public static final SkipListGeometry DEFAULT = new SkipListGeometry(6, 32);

    /** The ghost supernode's ordinal: left of supernode 0. */
    public static final long GHOST = -1;

    /** Largest supernode bits and height a reader accepts. */
    public static final int MAX_SUPERNODE_BITS = 16;
    public static final int MAX_HEIGHT = 48;

    public SkipListGeometry {
        if (!isValid(supernodeBits, maxHeight)) {
            throw new IllegalArgumentException("supernode bits 0.." + MAX_SUPERNODE_BITS
                    + " and height 1.." + MAX_HEIGHT + ", got " + supernodeBits + " and "
                    + maxHeight);
        }
    }

    public static boolean isValid(int supernodeBits, int maxHeight) {
        return supernodeBits >= 0 && supernodeBits <= MAX_SUPERNODE_BITS && maxHeight >= 1
                && maxHeight <= MAX_HEIGHT;
    }

    /** Chunk records in every supernode (K). */
    public int recordsPerSupernode() {
        return 1 << supernodeBits;
    }

    /** The supernode holding chunk {@code chunk}. */
    public long supernodeOf(long chunk) {
        return chunk >>> supernodeBits;
    }

    /** The slot of chunk {@code chunk} in its supernode. */
    public int slotOf(long chunk) {
        return (int) (chunk & (recordsPerSupernode() - 1));
    }

    /** The first chunk of supernode {@code ordinal}. */
    public long firstChunk(long ordinal) {
        return ordinal << supernodeBits;
    }

    /** Supernodes holding {@code chunkCount} chunks. */
    public long supernodes(long chunkCount) {
        return chunkCount == 0 ? 0 : supernodeOf(chunkCount - 1) + 1;
    }

    /** Levels of supernode {@code ordinal}: 1 + trailing zeros of ordinal + 1, capped; the ghost's is the maximum. */
    public int height(long ordinal) {
        if (ordinal == GHOST) {
            return maxHeight;
        }
        return 1 + Math.min(Long.numberOfTrailingZeros(ordinal + 1), maxHeight - 1);
    }

    /**
     * The supernode the level-{@code level} link of supernode {@code ordinal} (or of the tail,
     * as supernode {@code supernodes(count)}) points at: the largest ordinal below {@code
     * ordinal} whose ordinal + 1 is a multiple of 2^level, {@link #GHOST} when none is.
     */
    public long predecessor(long ordinal, int level) {
        long target = ((ordinal >>> level) << level) - 1;
        return target < 0 ? GHOST : target;
    }
}
