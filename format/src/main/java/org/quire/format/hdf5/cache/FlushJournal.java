package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import org.quire.format.storage.Storage;

/**
 * The write-ahead journal that makes a flush atomic: before the cache rewrites any block in
 * place, it writes the new image of every block of the flush here and a commit record
 * ({@link FlushJournalLayout}); once the blocks are in place, it empties the journal. After a
 * crash, {@link #committedBlocks} gives what to write again: a committed journal is replayed
 * whole (the flush then completes), an uncommitted one is ignored (the file then holds the
 * previous flush's blocks, untouched in place).
 */
public final class FlushJournal {

    /** A block image to put at {@code address}. */
    public record Block(long address, byte[] image) {
    }

    private final Storage storage;

    /** A journal in {@code storage}, which the writer holds open until it closes the file. */
    public FlushJournal(Storage storage) {
        this.storage = storage;
    }

    /** Writes {@code blocks} and the commit record, forcing them when {@code force}. */
    void commit(List<Block> blocks, boolean force) throws IOException {
        long size = FlushJournalLayout.HEADER_SIZE + FlushJournalLayout.COMMIT_SIZE;
        for (Block block : blocks) {
            size += FlushJournalLayout.recordSize(block.image());
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a flush of " + size + " bytes of metadata does not"
                    + " fit one journal buffer");
        }
        ByteBuffer out = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        FlushJournalLayout.putHeader(out);
        for (Block block : blocks) {
            FlushJournalLayout.putBlock(out, block.address(), block.image());
        }
        FlushJournalLayout.putCommit(out, blocks.size());
        storage.truncate(0);
        storage.write(out.flip(), 0);
        if (force) {
            storage.force(true);
        }
    }

    /** Marks the flush done: the blocks are in place, nothing is left to replay. */
    void clear() throws IOException {
        storage.truncate(0);
    }

    /** The journal file, for messages. */
    Path path() {
        return storage.path();
    }

    public void close() throws IOException {
        storage.close();
    }

    /**
     * The blocks of a committed journal in {@code storage}, in the order written; empty when
     * the journal is empty, uncommitted or damaged (a torn or partial write of the journal is
     * a flush that never began in place).
     */
    public static List<Block> committedBlocks(Storage storage) throws IOException {
        long size = storage.size();
        if (size < FlushJournalLayout.HEADER_SIZE + FlushJournalLayout.COMMIT_SIZE
                || size > Integer.MAX_VALUE - 16) {
            return List.of();
        }
        ByteBuffer in = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        if (!storage.readFully(in, 0)) {
            return List.of();
        }
        in.flip();
        byte[] magic = new byte[FlushJournalLayout.MAGIC.length];
        in.get(magic);
        if (!Arrays.equals(magic, FlushJournalLayout.MAGIC)
                || in.get() != FlushJournalLayout.VERSION) {
            return List.of();
        }
        in.position(FlushJournalLayout.HEADER_SIZE);
        List<Block> blocks = new ArrayList<>();
        while (in.remaining() >= FlushJournalLayout.COMMIT_SIZE) {
            int kind = in.get();
            in.position(in.position() + 3);
            if (kind == FlushJournalLayout.KIND_COMMIT) {
                int count = in.getInt();
                CRC32C crc = new CRC32C();
                crc.update(in.array(), 0, in.position());
                boolean valid = count == blocks.size() && in.getInt() == (int) crc.getValue();
                return valid ? blocks : List.of();
            }
            if (kind != FlushJournalLayout.KIND_BLOCK
                    || in.remaining() < FlushJournalLayout.BLOCK_HEADER_SIZE - 4) {
                return List.of();
            }
            long address = in.getLong();
            int length = in.getInt();
            int checksum = in.getInt();
            if (length < 0 || length > in.remaining()) {
                return List.of();
            }
            byte[] image = new byte[length];
            in.get(image);
            if (FlushJournalLayout.blockChecksum(address, image) != checksum) {
                return List.of();
            }
            blocks.add(new Block(address, image));
        }
        return List.of();
    }
}
