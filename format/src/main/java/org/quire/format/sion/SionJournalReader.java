package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Reads the recovery journal of one physical file (layout in {@link SionJournalLayout}): checks
 * its header and that it belongs to the file, then replays each task's records. Memory is one
 * journal block plus the fill levels found, whatever the journal's size.
 */
final class SionJournalReader implements Closeable {

    private static final String HEADER = "journal header";
    private static final String RECORD = "journal record";
    /** META2 is encoded in one buffer; a journal may not describe more chunks than that holds. */
    private static final long LARGEST_META2 = Integer.MAX_VALUE - 8;

    private final Path path;
    private final Storage storage;
    private final SionJournalHeader header;

    private SionJournalReader(Path path, Storage storage, SionJournalHeader header) {
        this.path = path;
        this.storage = storage;
        this.header = header;
    }

    /** Opens and checks the journal of {@code sionFile}; refuses if there is none. */
    static SionJournalReader open(StorageOpener opener, Path sionFile) throws IOException {
        Path path = SionFileNames.journal(sionFile);
        Storage storage;
        try {
            storage = opener.open(path, OpenMode.READ);
        } catch (NoSuchFileException e) {
            throw new SionRecoveryRefusedException(sionFile, SionRecoveryRefusedException.Reason.JOURNAL_MISSING,
                    "no recovery journal " + path + " beside the file (written with the journal off, by another"
                            + " writer than Quire's parallel writer, or the journal was removed): cannot recover");
        }
        try {
            return new SionJournalReader(path, storage, readHeader(storage));
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(List.of(storage), e);
            throw e;
        }
    }

    private static SionJournalHeader readHeader(Storage storage) throws IOException {
        Path path = storage.path();
        long size = storage.size();
        if (size < SionJournalLayout.HEADER_SIZE) {
            throw new CorruptFileException(path, size, HEADER, "header", SionJournalLayout.HEADER_SIZE + " bytes",
                    "file of " + size + " bytes (truncated)");
        }
        ByteBuffer bytes = PositionalIo.readExactly(storage, 0, SionJournalLayout.HEADER_SIZE,
                ByteOrder.BIG_ENDIAN, HEADER, "header");
        byte[] magic = SionJournalLayout.magic(bytes);
        if (!Arrays.equals(magic, SionJournalLayout.MAGIC)) {
            throw new CorruptFileException(path, 0, HEADER, "magic", EndiannessWord.hex(SionJournalLayout.MAGIC)
                    + " (\"QSIONJNL\")", EndiannessWord.hex(magic));
        }
        int version = SionJournalLayout.version(bytes);
        if (version != SionJournalLayout.VERSION) {
            throw new UnsupportedFormatException(path, "journal header format version", SionJournalLayout.VERSION_OFFSET,
                    "version " + version, "version " + SionJournalLayout.VERSION);
        }
        int stored = SionJournalLayout.storedHeaderChecksum(bytes);
        int computed = SionJournalLayout.headerChecksum(bytes);
        if (stored != computed) {
            throw new CorruptFileException(path, SionJournalLayout.HEADER_CHECKSUM_OFFSET, HEADER, "CRC32C",
                    hex(computed) + " (computed over bytes 0.." + (SionJournalLayout.HEADER_CHECKSUM_OFFSET - 1) + ")",
                    hex(stored));
        }
        return SionJournalLayout.decodeHeader(bytes);
    }

    SionJournalHeader header() {
        return header;
    }

    /**
     * Refuses unless this journal was written for physical file {@code fileNumber} whose META1 is
     * {@code meta1} with head checksum {@code meta1HeadChecksum}, in the open whose journal id is
     * {@code journalIdOfSet} (that of the set's first journal).
     */
    void checkBelongsTo(Path sionFile, Meta1 meta1, int meta1HeadChecksum, int fileNumber, long journalIdOfSet)
            throws SionRecoveryRefusedException {
        Meta1FixedPart fixed = meta1.fixedPart();
        String mismatch = null;
        if (header.fileNumber() != fileNumber || header.fileCount() != fixed.fileCount()
                || header.taskCount() != fixed.taskCount()) {
            mismatch = "it is for file " + header.fileNumber() + " of " + header.fileCount() + " with "
                    + header.taskCount() + " tasks, the file is number " + fileNumber + " of " + fixed.fileCount()
                    + " with " + fixed.taskCount() + " tasks";
        } else if (header.meta1HeadChecksum() != meta1HeadChecksum) {
            mismatch = "it records META1 checksum " + hex(header.meta1HeadChecksum()) + ", the file's META1 has "
                    + hex(meta1HeadChecksum);
        } else if (header.journalId() != journalIdOfSet) {
            mismatch = "its journal id " + Long.toHexString(header.journalId()) + " differs from "
                    + Long.toHexString(journalIdOfSet) + " in the set's other journals (another open of the set)";
        }
        if (mismatch != null) {
            throw new SionRecoveryRefusedException(sionFile, SionRecoveryRefusedException.Reason.JOURNAL_OF_ANOTHER_FILE,
                    "the recovery journal " + path + " belongs to another file: " + mismatch);
        }
    }

    /**
     * A task's state as its journal describes it.
     *
     * @param bytesPerChunk       fill level of each chunk
     * @param records             records whose fill levels were applied
     * @param damagedRecordOffset the torn or damaged last record that ended the task's run, if any
     */
    record TaskFills(long[] bytesPerChunk, long records, OptionalLong damagedRecordOffset) {
    }

    /**
     * Replays the records of {@code localTask} from sequence 1 to the first unused or damaged
     * slot (in {@link SionRecoveryMode#FLUSHED_ONLY} mode only up to its last forced record),
     * keeping the last fill level of each chunk. A damaged record ends the run only if it is the
     * task's last (torn by a crash); one with a valid record behind it, and replayed records that
     * pass their checksum but contradict the file (chunk order, capacity, end of file), make the
     * journal corrupt. The fill levels grow only with valid records, and never beyond what a META2
     * buffer can hold.
     *
     * @param geometry      the physical file's chunk layout
     * @param sionFileSize  its size; every recorded byte must lie before it
     */
    TaskFills readTask(int localTask, ChunkGeometry geometry, long sionFileSize, SionRecoveryMode mode)
            throws IOException {
        FillLevels fills = new FillLevels(localTask, geometry, sionFileSize, mode);
        if (mode == SionRecoveryMode.EVERY_RECORD) {
            Run run = walkRun(localTask, fills::apply);
            return new TaskFills(fills.bytesPerChunk(), run.records(), run.damagedRecordOffset());
        }
        // After a power failure the records behind the last forced one may describe data that never
        // reached the disk: a first walk checks them for damage only, the second replays up to it.
        Run run = walkRun(localTask, record -> true);
        walkRun(localTask, record -> record.sequence() <= run.lastForced() && fills.apply(record));
        return new TaskFills(fills.bytesPerChunk(), run.lastForced(), run.damagedRecordOffset());
    }

    /** Told each valid record of a task's run in order; returns false to stop the walk. */
    @FunctionalInterface
    private interface RecordVisitor {
        boolean visit(SionJournalRecord record) throws IOException;
    }

    /**
     * How a walk ended: {@code records} valid records visited, the last forced one among them
     * ({@code lastForced}, 0 if none), and the offset of a torn or damaged last record if that
     * ended the run.
     */
    private record Run(long records, long lastForced, OptionalLong damagedRecordOffset) {
    }

    /**
     * Hands the valid records of {@code localTask}, from sequence 1, to {@code visitor} until it
     * stops the walk, or the task's run ends at an unused slot or a torn last record.
     */
    private Run walkRun(int localTask, RecordVisitor visitor) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(SionJournalLayout.BLOCK_SIZE);
        long lastForced = 0;
        for (long sequence = 1; ; sequence++) {
            if (SionJournalLayout.slotInBlock(sequence) == 0) {
                readBlock(block, SionJournalLayout.blockOffset(header.taskCount(), localTask, sequence));
            }
            ByteBuffer slot = slot(block, sequence);
            if (isUnused(slot)) {
                refuseValidRecordBehind(localTask, sequence, block, "an unused slot (32 zero bytes)", true);
                return new Run(sequence - 1, lastForced, OptionalLong.empty());
            }
            String damage = damage(slot, localTask, sequence);
            if (damage != null) {
                refuseValidRecordBehind(localTask, sequence, block, damage, false);
                return new Run(sequence - 1, lastForced,
                        OptionalLong.of(SionJournalLayout.recordOffset(header.taskCount(), localTask, sequence)));
            }
            SionJournalRecord record = SionJournalLayout.decodeRecord(slot);
            if (!visitor.visit(record)) {
                return new Run(sequence - 1, lastForced, OptionalLong.empty());
            }
            lastForced = record.forced() ? sequence : lastForced;
        }
    }

    /** The fill levels of one task's chunks, built up record by record with every check against the file. */
    private final class FillLevels {

        private final int localTask;
        private final ChunkGeometry geometry;
        private final long sionFileSize;
        private final SionRecoveryMode mode;
        private long[] fills = new long[1];
        private long chunk;

        FillLevels(int localTask, ChunkGeometry geometry, long sionFileSize, SionRecoveryMode mode) {
            this.localTask = localTask;
            this.geometry = geometry;
            this.sionFileSize = sionFileSize;
            this.mode = mode;
        }

        long[] bytesPerChunk() {
            return Arrays.copyOf(fills, (int) chunk + 1);
        }

        /** Applies the next record of the task (valid, in sequence); always returns true. */
        boolean apply(SionJournalRecord record) throws CorruptFileException, UnsupportedFormatException {
            int taskCount = header.taskCount();
            long sequence = record.sequence();
            long offset = SionJournalLayout.recordOffset(taskCount, localTask, sequence);
            long capacity = geometry.chunkCapacity(localTask);
            boolean nextChunk = record.chunk() == chunk + 1 && sequence > 1; // a task's first record is for chunk 0
            if (record.chunk() != chunk && !nextChunk) {
                throw new CorruptFileException(path, offset + SionJournalLayout.RECORD_CHUNK_OFFSET, RECORD,
                        "chunk index of record " + sequence + " of task " + localTask,
                        (sequence == 1 ? "0" : chunk + " or " + (chunk + 1)) + " (records follow the task's chunks in order)",
                        Long.toString(record.chunk()));
            }
            if (nextChunk) {
                if (record.bytes() == 0) {
                    throw new CorruptFileException(path, offset + SionJournalLayout.RECORD_BYTES_OFFSET, RECORD,
                            "bytes in chunk " + record.chunk() + " of task " + localTask + " (record " + sequence + ")",
                            "at least 1 (a task moves to its next chunk only to write to it)", "0");
                }
                if (Meta2Layout.size(taskCount, chunk + 2) > LARGEST_META2) {
                    throw new UnsupportedFormatException(path, "journal record", offset,
                            "task " + localTask + " in more than " + (chunk + 1) + " chunks",
                            "as many chunks as a META2 of " + taskCount + " tasks in one buffer (2 GiB) holds");
                }
                chunk++;
                if (chunk == fills.length) {
                    fills = Arrays.copyOf(fills, fills.length * 2);
                }
            }
            long allowed = Math.min(capacity, bytesBeforeEndOfFile(geometry, localTask, chunk, sionFileSize));
            if (record.bytes() < fills[(int) chunk] || record.bytes() > allowed) {
                boolean onlyBeyondTheEnd = record.bytes() >= fills[(int) chunk] && record.bytes() <= capacity;
                throw new CorruptFileException(path, offset + SionJournalLayout.RECORD_BYTES_OFFSET, RECORD,
                        "bytes in chunk " + chunk + " of task " + localTask + " (record " + sequence + ")",
                        fills[(int) chunk] + ".." + allowed + " (not less than the chunk's previous record, within"
                                + " its capacity " + capacity + " and the SION file's " + sionFileSize + " bytes"
                                + (onlyBeyondTheEnd && mode == SionRecoveryMode.EVERY_RECORD && !record.forced()
                                ? "; an unforced record beyond the end of the file is what a power failure or an"
                                + " operating system crash can leave: recover with FLUSHED_ONLY"
                                + " (quire sion recover --flushed-only)" : "") + ")",
                        Long.toString(record.bytes()));
            }
            fills[(int) chunk] = record.bytes();
            return true;
        }
    }

    /**
     * What is wrong with the used slot {@code slot} as record {@code sequence} of {@code localTask}:
     * its checksum, sequence number or task; null if it is a valid record.
     */
    private String damage(ByteBuffer slot, int localTask, long sequence) {
        int stored = SionJournalLayout.storedRecordChecksum(slot);
        int computed = SionJournalLayout.recordChecksum(header.journalId(), slot);
        SionJournalRecord record = SionJournalLayout.decodeRecord(slot);
        if (stored != computed) {
            return "CRC32C " + hex(stored) + " (computed " + hex(computed) + ")";
        } else if (record.sequence() != sequence) {
            return "sequence number " + record.sequence();
        } else if (record.localTask() != localTask) {
            return "local task " + record.localTask();
        }
        return null;
    }

    /**
     * A task appends its records one after the other, so a crash can tear only its last one: if
     * a valid record follows the damaged record {@code endSequence}, the damage is corruption,
     * and ignoring it would silently drop the valid records behind it (flushed ones among them).
     * An unused slot ({@code afterUnusedSlot}) may have valid records behind it after a power
     * failure, unforced ones and at most one forced one, the task's last: the record of a flush
     * whose journal force had not returned (a later disk sector of the block reached the disk,
     * an earlier one did not). A forced record with a valid record behind it belongs to a flush
     * that returned, so its force had put every record before it on disk: then the unused slot
     * is corruption. Looks at the rest of the block of {@code endSequence} (already in
     * {@code block}), or at the next slot when it is its block's last, and at one slot more when
     * the last one looked at is forced: bounded work, whatever the journal's size.
     */
    private void refuseValidRecordBehind(int localTask, long endSequence, ByteBuffer block, String found,
                                         boolean afterUnusedSlot) throws IOException {
        int taskCount = header.taskCount();
        long next = endSequence + 1;
        long last = SionJournalLayout.slotInBlock(next) == 0 ? next
                : endSequence + SionJournalLayout.RECORDS_PER_BLOCK - 1 - SionJournalLayout.slotInBlock(endSequence);
        long forced = 0; // the first valid forced record behind the unused slot, if any
        for (long sequence = next; sequence <= last || (sequence == last + 1 && forced == last); sequence++) {
            if (SionJournalLayout.slotInBlock(sequence) == 0) {
                readBlock(block, SionJournalLayout.blockOffset(taskCount, localTask, sequence));
            }
            ByteBuffer slot = slot(block, sequence);
            if (isUnused(slot) || damage(slot, localTask, sequence) != null) {
                continue;
            }
            String behind = null;
            if (!afterUnusedSlot) {
                behind = "record " + sequence + " behind it, at offset " + offset(localTask, sequence)
                        + ", is valid: only a task's last record can be torn by a crash";
            } else if (forced != 0) {
                behind = "record " + forced + " behind it, at offset " + offset(localTask, forced) + ", is valid and"
                        + " forced, and record " + sequence + " behind that is valid too: that flush returned, so"
                        + " forcing the journal had put every record before it on disk";
            }
            if (behind != null) {
                throw new CorruptFileException(path, offset(localTask, endSequence), RECORD,
                        "record " + endSequence + " of task " + localTask, "a valid record (" + behind + ")", found);
            }
            if (SionJournalLayout.decodeRecord(slot).forced() && forced == 0) {
                forced = sequence;
            }
        }
    }

    private long offset(int localTask, long sequence) {
        return SionJournalLayout.recordOffset(header.taskCount(), localTask, sequence);
    }

    /** How many bytes of {@code task}'s chunk {@code chunk} lie before the end of the SION file. */
    private static long bytesBeforeEndOfFile(ChunkGeometry geometry, int task, long chunk, long fileSize) {
        long start = geometry.taskStart(task);
        long skip = geometry.globalSkip();
        if (skip > 0 && chunk > (fileSize - start) / skip) {
            return 0;
        }
        return Math.max(0, fileSize - (start + chunk * skip));
    }

    /** Reads a block; what lies beyond the end of the journal reads as zeros (unused slots). */
    private void readBlock(ByteBuffer block, long offset) throws IOException {
        block.clear();
        storage.readFully(block, offset);
        Arrays.fill(block.array(), block.position(), block.capacity(), (byte) 0);
        block.clear();
    }

    /** The slot of record {@code sequence} in {@code block}, the block that holds it. */
    private static ByteBuffer slot(ByteBuffer block, long sequence) {
        return block.slice(SionJournalLayout.slotInBlock(sequence) * SionJournalLayout.RECORD_SIZE,
                SionJournalLayout.RECORD_SIZE);
    }

    private static boolean isUnused(ByteBuffer slot) {
        for (int i = 0; i < slot.remaining(); i++) {
            if (slot.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static String hex(int value) {
        return String.format("%08x", value);
    }

    @Override
    public void close() throws IOException {
        storage.close();
    }
}
