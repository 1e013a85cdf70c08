package org.quire.format.sion;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Byte layout of the recovery journal, <b>Quire's own format</b> (not part of SIONlib; described
 * in {@code docs/sionlib.md}, section "Crash recovery"). One journal sits beside each physical
 * file ({@code name.journal}, {@code name.000001.journal}, ...) while a parallel writer has it
 * open; it records, per task, how far each chunk was filled, so that a file whose writer died
 * before close can get the META2 and META1 tail a close would have written. The SION file's own
 * bytes are never touched. All integers are big-endian. {@code n} = tasks of the physical file.
 *
 * <pre>
 *  Header, block 0 (offset 0, rest of the 4096-byte block is zero):
 *  offset  size  field
 *  0       8     magic "QSIONJNL"
 *  8       4     int32 journal format version (1)
 *  12      4     int32 filenumber of the physical file
 *  16      4     int32 nfiles of the set
 *  20      4     int32 ntasks (n) of the physical file
 *  24      8     int64 journal id: random, the same in every journal of one open of the set
 *  32      4     uint32 CRC32C of the physical file's META1 head (its first 1076+16n bytes)
 *  36      4     uint32 CRC32C of header bytes 0..35
 *  40            end of header
 *
 *  Blocks 1, 2, ...: 4096 bytes each, owned by one task, dealt out in rows like SION chunks:
 *  block of row r of local task i = 1 + r*n + i, at offset 4096 * (1 + r*n + i)
 *
 *  Record s (s = 1, 2, ...) of local task i: row (s-1) / 128, slot (s-1) % 128, 32 bytes:
 *  offset  size  field
 *  0       8     int64 sequence number s (a slot of zeros, s = 0, is unused)
 *  8       8     int64 chunk index k
 *  16      8     int64 bytes task i has in its chunk k
 *  24      4     int32 bit 31: forced (1 if flush() forced the data before this record, 0 for
 *                a chunk-end record); bits 0..30: local task i
 *  28      4     uint32 CRC32C of the journal id (8 bytes) followed by record bytes 0..27
 * </pre>
 *
 * A task's journal is the run of valid records from s = 1 up to the first slot that is unused or
 * whose checksum, sequence number or task does not match (a torn or lost write): records are only
 * appended, so this run is a prefix of what the task wrote, and only its last record can be torn
 * (a damaged record with a valid one behind it is corruption, and so is an unused slot with a
 * forced record behind it: forcing the journal puts every earlier record on disk). Each task
 * writes only its own blocks, so no two processes share a block. This class is the only place
 * that knows these offsets.
 */
public final class SionJournalLayout {

    public static final byte[] MAGIC = {'Q', 'S', 'I', 'O', 'N', 'J', 'N', 'L'};
    /** Version 1 got the forced bit before any release; journals never outlive their open file. */
    public static final int VERSION = 1;
    public static final int BLOCK_SIZE = 4096;
    public static final int RECORD_SIZE = 32;
    public static final int RECORDS_PER_BLOCK = BLOCK_SIZE / RECORD_SIZE;

    public static final int VERSION_OFFSET = 8;
    public static final int FILE_NUMBER_OFFSET = 12;
    public static final int FILE_COUNT_OFFSET = 16;
    public static final int TASK_COUNT_OFFSET = 20;
    public static final int JOURNAL_ID_OFFSET = 24;
    public static final int META1_HEAD_CHECKSUM_OFFSET = 32;
    public static final int HEADER_CHECKSUM_OFFSET = 36;
    public static final int HEADER_SIZE = 40;

    public static final int RECORD_SEQUENCE_OFFSET = 0;
    public static final int RECORD_CHUNK_OFFSET = 8;
    public static final int RECORD_BYTES_OFFSET = 16;
    /** Offset of the word holding the local task (bits 0..30) and {@link #RECORD_FORCED_BIT}. */
    public static final int RECORD_TASK_OFFSET = 24;
    /** Set in the task word of a record written after its data was forced ({@code flush()}). */
    public static final int RECORD_FORCED_BIT = 1 << 31;
    public static final int RECORD_CHECKSUM_OFFSET = 28;

    private SionJournalLayout() {
    }

    /** Absolute offset of the block holding record {@code sequence} (1-based) of {@code localTask}. */
    public static long blockOffset(int taskCount, int localTask, long sequence) {
        long row = (sequence - 1) / RECORDS_PER_BLOCK;
        return BLOCK_SIZE * (1 + row * taskCount + localTask);
    }

    /** Absolute offset of record {@code sequence} (1-based) of {@code localTask}. */
    public static long recordOffset(int taskCount, int localTask, long sequence) {
        return blockOffset(taskCount, localTask, sequence) + slotInBlock(sequence) * (long) RECORD_SIZE;
    }

    /** Index of record {@code sequence} within its block. */
    public static int slotInBlock(long sequence) {
        return (int) ((sequence - 1) % RECORDS_PER_BLOCK);
    }

    public static ByteBuffer encodeHeader(SionJournalHeader header) {
        ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE);
        out.put(0, MAGIC);
        out.putInt(VERSION_OFFSET, VERSION);
        out.putInt(FILE_NUMBER_OFFSET, header.fileNumber());
        out.putInt(FILE_COUNT_OFFSET, header.fileCount());
        out.putInt(TASK_COUNT_OFFSET, header.taskCount());
        out.putLong(JOURNAL_ID_OFFSET, header.journalId());
        out.putInt(META1_HEAD_CHECKSUM_OFFSET, header.meta1HeadChecksum());
        out.putInt(HEADER_CHECKSUM_OFFSET, headerChecksum(out));
        return out;
    }

    /** The stored magic of a header read from offset 0 ({@link #HEADER_SIZE} bytes). */
    public static byte[] magic(ByteBuffer header) {
        byte[] magic = new byte[MAGIC.length];
        header.get(0, magic);
        return magic;
    }

    public static int version(ByteBuffer header) {
        return header.getInt(VERSION_OFFSET);
    }

    public static int storedHeaderChecksum(ByteBuffer header) {
        return header.getInt(HEADER_CHECKSUM_OFFSET);
    }

    /** CRC32C of header bytes 0 .. {@link #HEADER_CHECKSUM_OFFSET}. */
    public static int headerChecksum(ByteBuffer header) {
        CRC32C crc = new CRC32C();
        crc.update(header.slice(0, HEADER_CHECKSUM_OFFSET));
        return (int) crc.getValue();
    }

    /** Decodes a header whose magic, version and checksum the caller has checked. */
    public static SionJournalHeader decodeHeader(ByteBuffer header) {
        return new SionJournalHeader(header.getInt(FILE_NUMBER_OFFSET), header.getInt(FILE_COUNT_OFFSET),
                header.getInt(TASK_COUNT_OFFSET), header.getLong(JOURNAL_ID_OFFSET),
                header.getInt(META1_HEAD_CHECKSUM_OFFSET));
    }

    /** CRC32C of a SION file's META1 head, the bytes a parallel writer puts down at open. */
    public static int meta1HeadChecksum(ByteBuffer meta1Head) {
        CRC32C crc = new CRC32C();
        crc.update(meta1Head.duplicate());
        return (int) crc.getValue();
    }

    public static ByteBuffer encodeRecord(long journalId, SionJournalRecord record) {
        ByteBuffer out = ByteBuffer.allocate(RECORD_SIZE);
        out.putLong(RECORD_SEQUENCE_OFFSET, record.sequence());
        out.putLong(RECORD_CHUNK_OFFSET, record.chunk());
        out.putLong(RECORD_BYTES_OFFSET, record.bytes());
        out.putInt(RECORD_TASK_OFFSET, record.localTask() | (record.forced() ? RECORD_FORCED_BIT : 0));
        out.putInt(RECORD_CHECKSUM_OFFSET, recordChecksum(journalId, out));
        return out;
    }

    /** The {@link #RECORD_SIZE} bytes at index 0 of {@code record} as a record, without any check. */
    public static SionJournalRecord decodeRecord(ByteBuffer record) {
        int taskWord = record.getInt(RECORD_TASK_OFFSET);
        return new SionJournalRecord(record.getLong(RECORD_SEQUENCE_OFFSET), taskWord & ~RECORD_FORCED_BIT,
                record.getLong(RECORD_CHUNK_OFFSET), record.getLong(RECORD_BYTES_OFFSET),
                (taskWord & RECORD_FORCED_BIT) != 0);
    }

    public static int storedRecordChecksum(ByteBuffer record) {
        return record.getInt(RECORD_CHECKSUM_OFFSET);
    }

    /** CRC32C of the journal id followed by the first {@link #RECORD_CHECKSUM_OFFSET} bytes of {@code record}. */
    public static int recordChecksum(long journalId, ByteBuffer record) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(8).putLong(0, journalId));
        crc.update(record.slice(0, RECORD_CHECKSUM_OFFSET));
        return (int) crc.getValue();
    }
}
