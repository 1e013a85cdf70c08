package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.FlushStage;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ContinuationMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;

/**
 * A version-2 object header being written: its chunks stay at the addresses allocated for them,
 * so a flush rewrites them in place (what an SWMR reader needs). Messages are only appended or
 * replaced by a body of the same length. Every last chunk keeps room for one continuation
 * message; when a new message does not fit, a continuation block is allocated at the end of
 * the file and the continuation message pointing at it goes into that reserved room.
 *
 * <p>Each chunk is a metadata cache entry held (protected) for the header's life: chunk 0 in
 * the {@link FlushStage#OBJECT_HEADER} stage, continuation blocks in {@link FlushStage#METADATA},
 * each chunk depending on the continuation block it points at. A change marks its chunk dirty;
 * the cache's flush writes it.
 */
final class WritableObjectHeader {

    /** Message room of a new continuation block beyond what its first message needs. */
    private static final int CONTINUATION_ROOM = 256;

    private final BlockFile file;
    private final MetadataCache cache;
    private final List<BlockEntry<Chunk>> chunks = new ArrayList<>();
    private final List<Slot> slots = new ArrayList<>();

    private static final class Chunk {
        final boolean first;
        final int capacity;
        int used;
        final List<Slot> slots = new ArrayList<>();

        Chunk(boolean first, int capacity) {
            this.first = first;
            this.capacity = capacity;
        }

        byte[] encode() {
            List<HeaderMessage> messages = new ArrayList<>();
            for (Slot slot : slots) {
                messages.add(slot.message);
            }
            return first ? ObjectHeaderV2.encodeChunkZero(messages, capacity)
                    : ObjectHeaderV2.encodeContinuation(messages, capacity);
        }
    }

    private static final class Slot {
        HeaderMessage message;

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
                new Chunk(true, capacity), Chunk::encode)));
        for (HeaderMessage message : initial) {
            add(message);
        }
    }

    long address() {
        return chunks.get(0).address();
    }

    /** Appends {@code message}; returns its handle for {@link #replace}. */
    int add(HeaderMessage message) {
        if (message.body().length > 0xffff) {
            throw new IllegalArgumentException("a header message holds at most 65535 bytes; this "
                    + "one needs " + message.body().length);
        }
        BlockEntry<Chunk> last = chunks.get(chunks.size() - 1);
        int reserve = ObjectHeaderV2.CONTINUATION_STORED_SIZE;
        if (last.value().used + message.storedSize() + reserve > last.value().capacity) {
            int capacity = message.storedSize() + reserve + CONTINUATION_ROOM;
            int blockSize = ObjectHeaderV2.continuationSize(capacity);
            BlockEntry<Chunk> next = held(BlockEntry.metadata(file.allocate(blockSize),
                    blockSize, new Chunk(false, capacity), Chunk::encode));
            place(last, new Slot(HeaderMessage.of(ContinuationMessage.TYPE, 0,
                    new ContinuationMessage(next.address(), blockSize).encode())));
            cache.createFlushDependency(last.address(), next.address());
            chunks.add(next);
            last = next;
        }
        Slot slot = new Slot(message);
        place(last, slot);
        slots.add(slot);
        return slots.size() - 1;
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
    }

    /** Replaces the body of message {@code handle} with one of the same length. */
    void replace(int handle, byte[] body) {
        Slot slot = slots.get(handle);
        if (body.length != slot.message.body().length) {
            throw new IllegalStateException("message of type " + slot.message.type()
                    + " changed length from " + slot.message.body().length + " to " + body.length);
        }
        if (!java.util.Arrays.equals(body, slot.message.body())) {
            slot.message = HeaderMessage.of(slot.message.type(), slot.message.flags(), body);
            for (BlockEntry<Chunk> chunk : chunks) {
                if (chunk.value().slots.contains(slot)) {
                    cache.markDirty(chunk);
                }
            }
        }
    }
}
