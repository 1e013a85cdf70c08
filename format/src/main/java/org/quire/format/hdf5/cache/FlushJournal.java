package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.Storage;

/**
 * The write-ahead journal that makes a flush atomic: before the cache rewrites any block in
 * place, it writes the new image of every block of the flush here, with what the file held
 * where the last one goes, and a commit record ({@link FlushJournalLayout}); once the blocks
 * are in place, it empties the journal. After a crash, {@link #blocksToReplay} gives what to
 * write again: a committed journal of this file is replayed whole (the flush then completes),
 * an uncommitted one is ignored (the file then holds the previous flush's blocks, untouched in
 * place).
 */
public final class FlushJournal {

    /** A block image to put at {@code address}. */
    public record Block(long address, byte[] image) {
    }

    /**
     * A committed flush: the file's bytes before it where its last block goes, and its blocks.
     */
    record Flush(Block previous, List<Block> blocks) {
    }

    private final Storage storage;

    /** A journal in {@code storage}, which the writer holds open until it closes the file. */
    public FlushJournal(Storage storage) {
        this.storage = storage;
    }

    /**
     * Writes the journal of a flush of {@code blocks} (at least one) and its commit record,
     * forcing them when {@code force}. {@code previous}: the file's bytes where the last block
     * goes, before this flush.
     *
     * @throws UnsupportedFormatException the flush's journal would pass 2 GiB
     */
    void commit(Block previous, List<Block> blocks, boolean force) throws IOException {
        long size = FlushJournalLayout.HEADER_SIZE + FlushJournalLayout.COMMIT_SIZE
                + FlushJournalLayout.recordSize(previous.image());
        for (Block block : blocks) {
            size += FlushJournalLayout.recordSize(block.image());
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new UnsupportedFormatException(storage.path(), "flush journal", 0,
                    "a flush of " + size + " bytes of metadata",
                    "flushes of at most 2 GiB of metadata (flush more often)");
        }
        ByteBuffer out = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        FlushJournalLayout.putHeader(out);
        FlushJournalLayout.putRecord(out, FlushJournalLayout.KIND_PREVIOUS, previous.address(),
                previous.image());
        for (Block block : blocks) {
            FlushJournalLayout.putRecord(out, FlushJournalLayout.KIND_BLOCK, block.address(),
                    block.image());
        }
        FlushJournalLayout.putCommit(out, blocks.size());
        storage.truncate(0);
        storage.write(out.flip(), 0);
        if (force) {
            storage.force(true);
        }
    }

    /**
     * Marks the flush done: the blocks are in place, nothing is left to replay. {@code force}
     * makes the emptying durable (the last flush before the journal is removed, whose removal
     * a power failure may undo: the journal then comes back empty).
     */
    void clear(boolean force) throws IOException {
        storage.truncate(0);
        if (force) {
            storage.force(true);
        }
    }

    /** The journal file, for messages. */
    Path path() {
        return storage.path();
    }

    public void close() throws IOException {
        storage.close();
    }

    /**
     * The blocks of the committed journal {@code journal} to write again into {@code file}, in
     * the order written; empty when the journal is empty, uncommitted or cut off (a flush that
     * never began in place).
     *
     * @throws ForeignJournalException the journal is not of this file: the file holds neither
     *         the bytes the flush replaced where its last block goes nor that block, or a block
     *         lies past the file's end
     * @throws CorruptFileException a damaged journal: not a journal, or a committed one whose
     *         records are inconsistent
     * @throws UnsupportedFormatException a journal version Quire does not read
     */
    public static List<Block> blocksToReplay(Storage journal, Storage file) throws IOException {
        Flush flush = committed(journal);
        if (flush == null) {
            return List.of();
        }
        long size = file.size();
        for (Block block : flush.blocks()) {
            if (block.address() < 0 || block.address() + block.image().length > size) {
                throw new ForeignJournalException(file.path(), journal.path(), "a block of "
                        + block.image().length + " bytes at " + block.address()
                        + " lies past the file's end " + size);
            }
        }
        Block last = flush.blocks().get(flush.blocks().size() - 1);
        byte[] held = bytesAt(file, last.address(), last.image().length);
        if (!Arrays.equals(held, flush.previous().image())
                && !Arrays.equals(held, last.image())) {
            throw new ForeignJournalException(file.path(), journal.path(), "the file holds at "
                    + last.address() + " neither the bytes the flush replaced nor the flush's");
        }
        return flush.blocks();
    }

    /** The file's {@code length} bytes at {@code address}, zeros past its end. */
    static byte[] bytesAt(Storage file, long address, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        file.readFully(bytes, address);
        return bytes.array();
    }

    /** The committed flush in {@code storage}, or null when it holds none. */
    static Flush committed(Storage storage) throws IOException {
        long size = storage.size();
        Path path = storage.path();
        if (size < FlushJournalLayout.HEADER_SIZE) {
            return null;
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new CorruptFileException(path, 0, "flush journal", "size",
                    "at most 2 GiB", Long.toString(size));
        }
        ByteBuffer in = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        if (!storage.readFully(in, 0)) {
            return null;
        }
        in.flip();
        byte[] header = Arrays.copyOf(in.array(), FlushJournalLayout.HEADER_SIZE);
        if (Arrays.equals(header, new byte[header.length])) {
            return null; // never written: a crash before the journal's first sector reached disk
        }
        byte[] magic = Arrays.copyOfRange(header, FlushJournalLayout.MAGIC_OFFSET,
                FlushJournalLayout.MAGIC_OFFSET + FlushJournalLayout.MAGIC.length);
        if (!Arrays.equals(magic, FlushJournalLayout.MAGIC)) {
            throw new CorruptFileException(path, FlushJournalLayout.MAGIC_OFFSET,
                    "flush journal", "signature", "\"QJNL\"", hex(magic));
        }
        int version = header[FlushJournalLayout.VERSION_OFFSET];
        if (version != FlushJournalLayout.VERSION) {
            throw new UnsupportedFormatException(path, "flush journal",
                    FlushJournalLayout.VERSION_OFFSET, "version " + version,
                    "version " + FlushJournalLayout.VERSION);
        }
        if (!endsWithValidCommit(in)) {
            return null; // cut off or torn before its commit record reached disk
        }
        // The commit's checksum vouches for every byte before it: from here, damage is corruption.
        in.position(FlushJournalLayout.HEADER_SIZE);
        Block previous = record(in, path, FlushJournalLayout.KIND_PREVIOUS);
        List<Block> blocks = new ArrayList<>();
        int commitAt = (int) size - FlushJournalLayout.COMMIT_SIZE;
        while (in.position() < commitAt) {
            blocks.add(record(in, path, FlushJournalLayout.KIND_BLOCK));
        }
        int count = in.getInt(commitAt + 4);
        if (in.position() != commitAt || count != blocks.size() || blocks.isEmpty()) {
            throw new CorruptFileException(path, commitAt, "flush journal commit record",
                    "block count", blocks.size() + " records ending at " + commitAt
                    + " (at least 1)", count + " (records end at " + in.position() + ")");
        }
        return new Flush(previous, blocks);
    }

    /** Whether {@code in} (the whole journal) ends with a commit record whose CRC matches. */
    private static boolean endsWithValidCommit(ByteBuffer in) {
        int commitAt = in.limit() - FlushJournalLayout.COMMIT_SIZE;
        if (commitAt < FlushJournalLayout.HEADER_SIZE
                || in.get(commitAt) != FlushJournalLayout.KIND_COMMIT) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(in.array(), 0, in.limit() - 4);
        return in.getInt(in.limit() - 4) == (int) crc.getValue();
    }

    /** The record of {@code kind} at {@code in}'s position, checked, in a committed journal. */
    private static Block record(ByteBuffer in, Path path, int kind) throws CorruptFileException {
        int at = in.position();
        String structure = "flush journal record";
        if (in.remaining() < FlushJournalLayout.BLOCK_HEADER_SIZE + FlushJournalLayout.COMMIT_SIZE) {
            throw new CorruptFileException(path, at, structure, "size",
                    "a record before the commit record", in.remaining() + " bytes left");
        }
        int found = in.get();
        if (found != kind) {
            throw new CorruptFileException(path, at, structure, "kind", Integer.toString(kind),
                    Integer.toString(found));
        }
        in.position(in.position() + 3);
        long address = in.getLong();
        int length = in.getInt();
        int checksum = in.getInt();
        if (length < 0 || length > in.remaining() - FlushJournalLayout.COMMIT_SIZE) {
            throw new CorruptFileException(path, at, structure, "length",
                    "0.." + (in.remaining() - FlushJournalLayout.COMMIT_SIZE),
                    Integer.toString(length));
        }
        byte[] image = new byte[length];
        in.get(image);
        int computed = FlushJournalLayout.blockChecksum(address, image);
        if (computed != checksum) {
            throw new CorruptFileException(path, at, structure, "CRC32C",
                    String.format("0x%08x", computed), String.format("0x%08x", checksum));
        }
        return new Block(address, image);
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02x", b));
        }
        return text.toString();
    }
}
