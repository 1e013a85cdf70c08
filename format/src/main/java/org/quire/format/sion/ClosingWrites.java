package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.quire.format.storage.Storage;

/**
 * The two writes that close a physical file (reference sections 2.1, 2.3, 2.4): META1's tail
 * (maxchunks, start_of_varheader) and, in one piece, META2 followed by the trailer if any.
 *
 * @param tailOffset       where META1's tail goes
 * @param tail             maxchunks and start_of_varheader
 * @param startOfMeta2     where META2 goes
 * @param meta2AndTrailer  META2, then the trailer bytes (possibly none)
 */
record ClosingWrites(long tailOffset, ByteBuffer tail, long startOfMeta2, ByteBuffer meta2AndTrailer) {

    /**
     * Plans the close of a file laid out as {@code geometry} whose tasks filled
     * {@code bytesPerChunk[localRank]}; {@code trailer} may be empty.
     */
    static ClosingWrites of(ChunkGeometry geometry, long[][] bytesPerChunk, ByteOrder order, ByteBuffer trailer) {
        int maxChunks = 0;
        for (long[] fills : bytesPerChunk) {
            maxChunks = Math.max(maxChunks, fills.length);
        }
        long startOfMeta2 = geometry.startOfMeta2(maxChunks);
        ByteBuffer meta2 = Meta2Layout.encode(bytesPerChunk, maxChunks, order);
        ByteBuffer meta2AndTrailer = ByteBuffer.allocate(meta2.remaining() + trailer.remaining());
        meta2AndTrailer.put(meta2).put(trailer.duplicate()).flip();
        return new ClosingWrites(Meta1Layout.maxChunksOffset(geometry.taskCount()),
                Meta1Layout.encodeTail(maxChunks, startOfMeta2, order), startOfMeta2, meta2AndTrailer);
    }

    /** Size of the closed file: it ends with META2 and its trailer. */
    long endOfFile() {
        return startOfMeta2 + meta2AndTrailer.remaining();
    }

    /**
     * Writes META2 (and trailer) first and META1's tail last: a non-zero start_of_varheader is
     * the word that says "closed", so it must not reach the disk before what it points to. With
     * {@code fsync}, each step is forced to stable storage before the next.
     */
    void writeTo(Storage storage, boolean fsync) throws IOException {
        storage.write(meta2AndTrailer.duplicate(), startOfMeta2);
        if (fsync) {
            storage.force(true);
        }
        storage.write(tail.duplicate(), tailOffset);
        if (fsync) {
            storage.force(true);
        }
    }

    /** Wire form, for handing the writes to the rank that owns the file. */
    byte[] encode() {
        ByteBuffer wire = ByteBuffer.allocate(8 + 4 + tail.remaining() + 8 + 4 + meta2AndTrailer.remaining());
        wire.putLong(tailOffset).putInt(tail.remaining()).put(tail.duplicate());
        wire.putLong(startOfMeta2).putInt(meta2AndTrailer.remaining()).put(meta2AndTrailer.duplicate());
        return wire.array();
    }

    static ClosingWrites decode(byte[] encoded) {
        ByteBuffer wire = ByteBuffer.wrap(encoded);
        long tailOffset = wire.getLong();
        ByteBuffer tail = take(wire, wire.getInt());
        long startOfMeta2 = wire.getLong();
        ByteBuffer meta2AndTrailer = take(wire, wire.getInt());
        return new ClosingWrites(tailOffset, tail, startOfMeta2, meta2AndTrailer);
    }

    private static ByteBuffer take(ByteBuffer wire, int length) {
        ByteBuffer part = wire.slice(wire.position(), length);
        wire.position(wire.position() + length);
        return part;
    }
}
