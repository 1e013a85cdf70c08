package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.FlushStage;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ContinuationMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV1;
import org.quire.format.hdf5.layout.ObjectHeaderV2;

/**
 * An object header being written: version 2 as below, or version 1 changed in place only
 * ({@link #openVersion1}). A version-2 header being written: its chunks stay at the addresses allocated for them,
 * so a flush rewrites them in place (what an SWMR reader needs). Messages are only appended or
 * replaced by a body of the same length. Every last chunk keeps room for one continuation
 * message; when a new message does not fit, a continuation block is allocated at the end of
 * the file and the continuation message pointing at it goes into that reserved room (in a
 * continuation block, room kept before its messages). Each new
 * block has at least the room of all chunks before it (up to {@link #MAX_GROWTH_ROOM}), so the
 * number of chunks grows with the logarithm of the header's size.
 *
 * <p>A header of a reopened file ({@link #open}) keeps its chunks and their addresses, chunk
 * 0's fields as read; its null messages are free room. New messages go to its last chunk, and
 * if that chunk (written by libhdf5, maybe full) has no room for a continuation message, its
 * last messages move to the new continuation block, in order.
 *
 * <p>Each chunk is a metadata cache entry held (protected) for the header's life: chunk 0 in
 * the {@link FlushStage#OBJECT_HEADER} stage, continuation blocks in {@link FlushStage#METADATA},
 * each chunk depending on the continuation block it points at. A change marks its chunk dirty;
 * the cache's flush writes it.
 */
final class WritableObjectHeader {

    /** Message room of a new continuation block beyond what its first message needs. */
    private static final int CONTINUATION_ROOM = 256;

    /**
     * The most message room growth gives a new continuation block: a flush rewrites a dirty
     * chunk whole, so the last chunk (where new messages go) stays at most this large unless
     * its first messages need more (docs/hdf5.md, "How object headers grow").
     */
    static final int MAX_GROWTH_ROOM = 1 << 20;

    private final BlockFile file;
    private final MetadataCache cache;
    private final List<BlockEntry<Chunk>> chunks = new ArrayList<>();
    private final List<Slot> slots = new ArrayList<>();

    private static final class Chunk {
        /** The bytes before the messages: chunk 0's fields (kept as read), or "OCHK". */
        final byte[] prefix;
        final int capacity;
        int used;
        final List<Slot> slots = new ArrayList<>();
        /**
         * A null message at the start of a continuation block, kept for the continuation
         * message to the next block (see reserve), or null.
         */
        Slot continuationRoom;

        /** A version-1 header's block as read, patched in place when written; else null. */
        final ObjectHeaderV1.StoredChunk version1;

        Chunk(byte[] prefix, int capacity) {
            this(prefix, capacity, null);
        }

        Chunk(byte[] prefix, int capacity, ObjectHeaderV1.StoredChunk version1) {
            this.prefix = prefix;
            this.capacity = capacity;
            this.version1 = version1;
        }

        byte[] encode() {
            List<HeaderMessage> messages = new ArrayList<>();
            for (Slot slot : slots) {
                messages.add(slot.message);
            }
            return version1 != null ? ObjectHeaderV1.patch(version1, messages)
                    : ObjectHeaderV2.encodeChunk(prefix, messages, capacity);
        }
    }

    private static final class Slot {
        HeaderMessage message;
        /** Entries the message points at, which its chunk is written after (see dependOn). */
        final List<Long> children = new ArrayList<>();

        Slot(HeaderMessage message) {
            this.message = message;
        }
    }

    /**
     * Allocates chunk 0 with room for {@code initial} messages, one continuation message and
     * {@code spareBytes} for messages added later.
     */
    WritableObjectHeader(BlockFile file, MetadataCache cache, List<HeaderMessage> initial,
                         int spareBytes) {
        this.file = file;
        this.cache = cache;
        int capacity = ObjectHeaderV2.CONTINUATION_STORED_SIZE + spareBytes;
        for (HeaderMessage message : initial) {
            capacity += message.storedSize();
        }
        int size = ObjectHeaderV2.chunkZeroSize(capacity);
        chunks.add(held(new BlockEntry<>(file.allocate(size), size, FlushStage.OBJECT_HEADER,
                new Chunk(ObjectHeaderV2.chunkZeroPrefix(capacity), capacity), Chunk::encode)));
        for (HeaderMessage message : initial) {
            add(message);
        }
    }

    private WritableObjectHeader(BlockFile file, MetadataCache cache) {
        this.file = file;
        this.cache = cache;
    }

    /**
     * The header a file holds at {@code address}, made writable: each chunk becomes a cache
     * entry at its address, held for the header's life, holding the messages read (null
     * messages and gaps dropped: their room is free for new messages); chunk 0 keeps its fields
     * (flags, times, ...) as they are.
     *
     * @throws UnsupportedFormatException the messages carry creation order fields (read, not
     *                                    written)
     */
    @SuppressWarnings("unchecked")
    static WritableObjectHeader open(BlockFile file, MetadataCache cache, long address)
            throws IOException {
        ObjectHeaderV2.StoredHeader stored = ObjectHeaderV2.readChunks(file, address);
        if (stored.creationOrderTracked()) {
            throw new UnsupportedFormatException(file.path(), "object header", address,
                    "header message creation order tracked (flags bit 2)",
                    "writing headers without creation order (reading supports it)");
        }
        WritableObjectHeader header = new WritableObjectHeader(file, cache);
        List<long[]> continuations = new ArrayList<>();
        for (ObjectHeaderV2.StoredChunk read : stored.chunks()) {
            if (cache.contains(read.address())) {
                throw new IllegalStateException("object header chunk at " + read.address()
                        + " is open twice");
            }
            Chunk chunk = new Chunk(read.prefix(), read.capacity());
            if (!header.chunks.isEmpty()
                    && ObjectHeaderV2.startsWithNullMessage(read, ContinuationMessage.SIZE)) {
                chunk.continuationRoom = new Slot(continuationRoom());
                chunk.slots.add(chunk.continuationRoom);
                chunk.used += chunk.continuationRoom.message.storedSize();
            }
            for (HeaderMessage message : read.messages()) {
                Slot slot = new Slot(message);
                chunk.slots.add(slot);
                chunk.used += message.storedSize();
                if (message.type() == ContinuationMessage.TYPE) {
                    continuations.add(new long[] {read.address(), ContinuationMessage.decode(
                            message.reader(file.path(), "continuation message")).address()});
                } else {
                    header.slots.add(slot);
                }
            }
            FlushStage stage = header.chunks.isEmpty() ? FlushStage.OBJECT_HEADER
                    : FlushStage.METADATA;
            header.chunks.add(cache.protect(read.address(), BlockEntry.class, (at, storage) ->
                    new BlockEntry<>(at, read.size(), stage, chunk, Chunk::encode)));
        }
        for (long[] pointer : continuations) {
            cache.createFlushDependency(pointer[0], pointer[1]);
        }
        return header;
    }

    /**
     * The version-1 header a file holds at {@code address}, made writable in place only: each
     * block becomes a {@link FlushStage#METADATA} cache entry (chunk 0 in {@link
     * FlushStage#OBJECT_HEADER}) held for the header's life, whose messages {@link #replace}
     * changes keeping their sizes; {@link #add} and {@link #remove} refuse (docs/hdf5.md, "The
     * old format").
     */
    @SuppressWarnings("unchecked")
    static WritableObjectHeader openVersion1(BlockFile file, MetadataCache cache, long address)
            throws IOException {
        WritableObjectHeader header = new WritableObjectHeader(file, cache);
        for (ObjectHeaderV1.StoredChunk read : ObjectHeaderV1.readChunks(file, address)) {
            if (cache.contains(read.address())) {
                throw new IllegalStateException("object header chunk at " + read.address()
                        + " is open twice");
            }
            Chunk chunk = new Chunk(new byte[0], read.image().length, read);
            for (HeaderMessage message : read.messages()) {
                Slot slot = new Slot(message);
                chunk.slots.add(slot);
                header.slots.add(slot);
            }
            FlushStage stage = header.chunks.isEmpty() ? FlushStage.OBJECT_HEADER
                    : FlushStage.METADATA;
            header.chunks.add(cache.protect(read.address(), BlockEntry.class, (at, storage) ->
                    new BlockEntry<>(at, read.image().length, stage, chunk, Chunk::encode)));
        }
        return header;
    }

    long address() {
        return chunks.get(0).address();
    }

    /** Whether this is a version-1 header, changed only in place ({@link #openVersion1}). */
    boolean isVersion1() {
        return chunks.get(0).value().version1 != null;
    }

    /** Refuses a change that would grow or reorder a version-1 header. */
    private void requireVersion2(String change) {
        if (isVersion1()) {
            throw new UnsupportedOperationException(file.path() + ": cannot " + change
                    + " the version-1 object header at " + address() + ": Quire changes "
                    + "version-1 headers in place only (same-size message bodies)");
        }
    }

    /** The messages other than continuation messages, in handle order ({@link #add}'s). */
    List<HeaderMessage> messages() {
        List<HeaderMessage> messages = new ArrayList<>();
        for (Slot slot : slots) {
            messages.add(slot.message);
        }
        return messages;
    }

    /** The handle of the first message of {@code type}, or -1. */
    int handleOf(int type) {
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).message.type() == type) {
                return i;
            }
        }
        return -1;
    }

    /** Appends {@code message}; returns its handle for {@link #replace}. */
    int add(HeaderMessage message) {
        if (message.body().length > 0xffff) {
            throw new IllegalArgumentException("a header message holds at most 65535 bytes; this "
                    + "one needs " + message.body().length);
        }
        requireVersion2("add a message of type " + message.type() + " to");
        reserve(message.storedSize());
        Slot slot = new Slot(message);
        place(chunks.get(chunks.size() - 1), slot);
        slots.add(slot);
        return slots.size() - 1;
    }

    /**
     * Makes room for messages of {@code bytes} stored bytes in the last chunk: when they do not
     * fit, one new continuation block takes them all. Call it before adding many messages at
     * once: libhdf5 pays for every chunk of a header it changes (moving the links of a group
     * out of 84 small chunks into dense storage took it 0.65 s of CPU for 1,000 links and 9.4 s
     * for 2,000; out of 2 chunks, 0.01 s: docs/hdf5.md, "Adding links to a group libhdf5
     * stores densely").
     */
    void reserve(int bytes) {
        requireVersion2("reserve room in");
        BlockEntry<Chunk> last = chunks.get(chunks.size() - 1);
        Slot room = last.value().continuationRoom;
        int reserve = room != null ? 0 : ObjectHeaderV2.CONTINUATION_STORED_SIZE;
        if (last.value().used + bytes + reserve <= last.value().capacity) {
            return;
        }
        List<Slot> moved = room != null ? List.of() : makeRoomForContinuation(last);
        int needed = bytes + ObjectHeaderV2.CONTINUATION_STORED_SIZE + CONTINUATION_ROOM;
        for (Slot slot : moved) {
            needed += slot.message.storedSize();
        }
        // At least the room of all chunks so far: a header grown one message at a time
        // (also across reopenings) has O(log size) chunks, which libhdf5 pays for.
        int capacity = Math.max(needed, Math.min(totalCapacity(), MAX_GROWTH_ROOM));
        int blockSize = ObjectHeaderV2.continuationSize(capacity);
        BlockEntry<Chunk> next = held(BlockEntry.metadata(file.allocate(blockSize),
                blockSize, new Chunk(ObjectHeaderV2.continuationPrefix(), capacity),
                Chunk::encode));
        HeaderMessage continuation = HeaderMessage.of(ContinuationMessage.TYPE, 0,
                new ContinuationMessage(next.address(), blockSize).encode());
        if (room != null) {
            room.message = continuation;
            last.value().continuationRoom = null;
            cache.markDirty(last);
        } else {
            place(last, new Slot(continuation));
        }
        cache.createFlushDependency(last.address(), next.address());
        chunks.add(next);
        // The next continuation message goes before the block's messages, not after them:
        // when libhdf5 removes the links of a group (moving them into dense storage) it
        // carries every message after removed ones forward step by step (docs/hdf5.md).
        Slot nextRoom = new Slot(continuationRoom());
        place(next, nextRoom);
        next.value().continuationRoom = nextRoom;
        for (Slot slot : moved) {
            place(next, slot);
        }
    }

    /** A null message as large as a continuation message. */
    private static HeaderMessage continuationRoom() {
        return HeaderMessage.of(ObjectHeaderV2.NULL_MESSAGE, 0, new byte[ContinuationMessage.SIZE]);
    }

    /** The message room of all chunks together. */
    private int totalCapacity() {
        int total = 0;
        for (BlockEntry<Chunk> chunk : chunks) {
            total += chunk.value().capacity;
        }
        return total;
    }

    /**
     * Takes the last messages out of {@code chunk} until a continuation message fits in it (a
     * chunk written by libhdf5 may be full; one Quire wrote always has that room): they move,
     * in order, to the new continuation block.
     */
    private List<Slot> makeRoomForContinuation(BlockEntry<Chunk> chunk) {
        Chunk value = chunk.value();
        List<Slot> moved = new ArrayList<>();
        for (int i = value.slots.size() - 1;
             i >= 0 && value.used + ObjectHeaderV2.CONTINUATION_STORED_SIZE > value.capacity;
             i--) {
            Slot slot = value.slots.get(i);
            if (slot.message.type() != ContinuationMessage.TYPE) {
                value.slots.remove(i);
                value.used -= slot.message.storedSize();
                moved.add(0, slot);
            }
        }
        if (value.used + ObjectHeaderV2.CONTINUATION_STORED_SIZE > value.capacity) {
            throw new IllegalStateException("object header chunk at " + chunk.address()
                    + " holds only continuation messages and has no room for another");
        }
        cache.markDirty(chunk);
        return moved;
    }

    /** Inserts a new chunk into the cache and protects it for the header's life. */
    private BlockEntry<Chunk> held(BlockEntry<Chunk> entry) {
        try {
            return cache.insertProtected(entry);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void place(BlockEntry<Chunk> chunk, Slot slot) {
        chunk.value().slots.add(slot);
        chunk.value().used += slot.message.storedSize();
        cache.markDirty(chunk);
        for (long child : slot.children) {
            // One evicted since is clean on disk: nothing is left to wait for.
            if (cache.contains(child)) {
                cache.createFlushDependency(chunk.address(), child);
            }
        }
    }

    /**
     * Makes the chunk holding message {@code handle} (and any chunk it moves to later) written
     * only after each of {@code children}, cache entries the message points at (the global
     * heap collections holding an attribute's strings).
     */
    void dependOn(int handle, List<Long> children) {
        Slot slot = slots.get(handle);
        slot.children.addAll(children);
        for (BlockEntry<Chunk> chunk : chunks) {
            if (chunk.value().slots.contains(slot)) {
                for (long child : children) {
                    cache.createFlushDependency(chunk.address(), child);
                }
            }
        }
    }

    /**
     * Removes message {@code handle} as libhdf5 does: it becomes a null message of the same
     * size, whose room a later reopening reuses (the handles of the others stay).
     */
    void remove(int handle) {
        requireVersion2("remove a message of type " + slots.get(handle).message.type() + " from");
        Slot slot = slots.get(handle);
        slot.message = HeaderMessage.of(ObjectHeaderV2.NULL_MESSAGE, 0,
                new byte[slot.message.body().length]);
        for (BlockEntry<Chunk> chunk : chunks) {
            if (chunk.value().slots.contains(slot)) {
                cache.markDirty(chunk);
            }
        }
    }

    /** Replaces the body of message {@code handle} with one of the same length. */
    void replace(int handle, byte[] body) {
        Slot slot = slots.get(handle);
        if (body.length != slot.message.body().length) {
            throw new IllegalStateException("message of type " + slot.message.type()
                    + " changed length from " + slot.message.body().length + " to " + body.length);
        }
        if (!java.util.Arrays.equals(body, slot.message.body())) {
            slot.message = new HeaderMessage(slot.message.type(), slot.message.flags(), body,
                    slot.message.bodyAddress());
            for (BlockEntry<Chunk> chunk : chunks) {
                if (chunk.value().slots.contains(slot)) {
                    cache.markDirty(chunk);
                }
            }
        }
    }
}
