package org.quire.format.hdf5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
 */
final class WritableObjectHeader {

    /** Message room of a new continuation block beyond what its first message needs. */
    private static final int CONTINUATION_ROOM = 256;

    private final BlockFile file;
    private final List<Chunk> chunks = new ArrayList<>();
    private final List<Slot> slots = new ArrayList<>();
    private boolean dirty = true;

    private static final class Chunk {
        final long address;
        final int capacity;
        int used;
        final List<Slot> slots = new ArrayList<>();

        Chunk(long address, int capacity) {
            this.address = address;
            this.capacity = capacity;
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
    WritableObjectHeader(BlockFile file, List<HeaderMessage> initial, int spareBytes) {
        this.file = file;
        int capacity = ObjectHeaderV2.CONTINUATION_STORED_SIZE + spareBytes;
        for (HeaderMessage message : initial) {
            capacity += message.storedSize();
        }
        chunks.add(new Chunk(file.allocate(ObjectHeaderV2.chunkZeroSize(capacity)), capacity));
        for (HeaderMessage message : initial) {
            add(message);
        }
    }

    long address() {
        return chunks.get(0).address;
    }

    /** Appends {@code message}; returns its handle for {@link #replace}. */
    int add(HeaderMessage message) {
        if (message.body().length > 0xffff) {
            throw new IllegalArgumentException("a header message holds at most 65535 bytes; this "
                    + "one needs " + message.body().length);
        }
        Chunk last = chunks.get(chunks.size() - 1);
        int reserve = ObjectHeaderV2.CONTINUATION_STORED_SIZE;
        if (last.used + message.storedSize() + reserve > last.capacity) {
            int capacity = message.storedSize() + reserve + CONTINUATION_ROOM;
            int blockSize = ObjectHeaderV2.continuationSize(capacity);
            Chunk next = new Chunk(file.allocate(blockSize), capacity);
            place(last, new Slot(HeaderMessage.of(ContinuationMessage.TYPE, 0,
                    new ContinuationMessage(next.address, blockSize).encode())));
            chunks.add(next);
            last = next;
        }
        Slot slot = new Slot(message);
        place(last, slot);
        slots.add(slot);
        dirty = true;
        return slots.size() - 1;
    }

    private static void place(Chunk chunk, Slot slot) {
        chunk.slots.add(slot);
        chunk.used += slot.message.storedSize();
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
            dirty = true;
        }
    }

    /** Writes every chunk, continuation blocks before chunk 0 which points at them. */
    void flush() throws IOException {
        if (!dirty) {
            return;
        }
        for (int i = chunks.size() - 1; i >= 0; i--) {
            Chunk chunk = chunks.get(i);
            List<HeaderMessage> messages = new ArrayList<>();
            for (Slot slot : chunk.slots) {
                messages.add(slot.message);
            }
            file.write(chunk.address, i == 0
                    ? ObjectHeaderV2.encodeChunkZero(messages, chunk.capacity)
                    : ObjectHeaderV2.encodeContinuation(messages, chunk.capacity));
        }
        dirty = false;
    }
}
