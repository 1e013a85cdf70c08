package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.TrackingOpener;

/**
 * What the crash tests of {@link SionRecovery} leave loose: the exact bounds and words of the
 * journal's errors, what lies beyond the journal's end, how far behind a torn or unused slot the
 * reader looks, the refusals of closed files and of a META1 Quire's writer would not lay out.
 */
class SionRecoveryMutationGapsTest {

    /** Two ranks, chunks of 128 and 192 bytes, every rank flushed after 3 records, then a crash. */
    private static final int TASKS = 2;
    private static final ChunkGeometry GEOMETRY = ChunkGeometry.fromCapacities(64, new long[] {128, 192});

    @TempDir
    Path directory;

    private Path sion;
    private Path journal;
    private byte[] goodJournal;
    private long journalId;

    @BeforeEach
    void crash() throws Exception {
        Path crash = directory.resolve("crash");
        int[] flushed = {3, 3};
        SionRecoveryTest.writeWithCrashSnapshot(directory.resolve("j.sion"), 1, flushed, flushed, flushed, crash,
                SionWriteOptions.defaults());
        sion = crash.resolve("j.sion");
        journal = SionFileNames.journal(sion);
        goodJournal = Files.readAllBytes(journal);
        journalId = ByteBuffer.wrap(goodJournal).getLong(SionJournalLayout.JOURNAL_ID_OFFSET);
    }

    /** The good journal with {@code records} of task 0 written into their slots (the journal grows as needed). */
    private byte[] withRecordsOfTask0(byte[] journalBytes, List<SionJournalRecord> records) {
        byte[] bytes = journalBytes;
        for (SionJournalRecord record : records) {
            bytes = withRecordInSlot(bytes, 0, record.sequence(), record);
        }
        return bytes;
    }

    /** {@code journalBytes} with {@code record} in slot {@code sequence} of {@code localTask}. */
    private byte[] withRecordInSlot(byte[] journalBytes, int localTask, long sequence, SionJournalRecord record) {
        int at = (int) SionJournalLayout.recordOffset(TASKS, localTask, sequence);
        byte[] bytes = Arrays.copyOf(journalBytes, Math.max(journalBytes.length, at + SionJournalLayout.RECORD_SIZE));
        SionJournalLayout.encodeRecord(journalId, record).get(0, bytes, at, SionJournalLayout.RECORD_SIZE);
        return bytes;
    }

    private static SionJournalRecord inChunk0(long sequence, boolean forced) {
        return new SionJournalRecord(sequence, 0, 0, sequence / 3, forced);
    }

    private CorruptFileException refusedWith(byte[] journalBytes) throws IOException {
        Files.write(journal, journalBytes);
        return assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
    }

    @Test
    void aRecordBeyondTheEndOfTheFileIsBoundedByTheBytesBeforeIt() throws Exception {
        // Rank 0's records: (chunk 0, 53), then the flush (chunk 1, 106). The file now ends 50 bytes into chunk 1.
        long size = GEOMETRY.taskStart(0) + GEOMETRY.globalSkip() + 50;
        try (FileChannel channel = FileChannel.open(sion, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
        long second = SionJournalLayout.recordOffset(TASKS, 0, 2);
        CorruptFileException forced = refusedWith(goodJournal);
        assertEquals(second + SionJournalLayout.RECORD_BYTES_OFFSET, forced.offset());
        assertEquals("bytes in chunk 1 of task 0 (record 2)", forced.field());
        assertEquals("0..50 (not less than the chunk's previous record, within its capacity 128 and the SION file's "
                + size + " bytes)", forced.expected());
        assertEquals("106", forced.found());

        // An unforced record of a full chunk, beyond the end: what a power failure leaves.
        CorruptFileException unforced = refusedWith(withRecordsOfTask0(goodJournal,
                List.of(new SionJournalRecord(2, 0, 1, 128, false))));
        assertEquals("0..50 (not less than the chunk's previous record, within its capacity 128 and the SION file's "
                + size + " bytes; an unforced record beyond the end of the file is what a power failure or an"
                + " operating system crash can leave: recover with FLUSHED_ONLY (quire sion recover --flushed-only))",
                unforced.expected());
    }

    @Test
    void aRecordOutOfChunkOrderNamesTheChunksItMayBeFor() throws Exception {
        CorruptFileException first = refusedWith(withRecordsOfTask0(goodJournal,
                List.of(new SionJournalRecord(1, 0, 1, 10, false))));
        assertEquals(SionJournalLayout.recordOffset(TASKS, 0, 1) + SionJournalLayout.RECORD_CHUNK_OFFSET, first.offset());
        assertEquals("chunk index of record 1 of task 0", first.field());
        assertEquals("0 (records follow the task's chunks in order)", first.expected());
        assertEquals("1", first.found());

        CorruptFileException skipped = refusedWith(withRecordsOfTask0(goodJournal,
                List.of(new SionJournalRecord(2, 0, 2, 10, false))));
        assertEquals("0 or 1 (records follow the task's chunks in order)", skipped.expected());
        assertEquals("2", skipped.found());
    }

    @Test
    void aChecksumValidRecordInAnotherSlotIsDamageNamedByItsSequenceOrTask() throws Exception {
        long first = SionJournalLayout.recordOffset(TASKS, 0, 1);
        // Record 2 of rank 0 stays valid behind the misplaced record 1: corruption, not a tear.
        CorruptFileException wrongSequence = refusedWith(withRecordInSlot(goodJournal, 0, 1,
                new SionJournalRecord(7, 0, 0, 10, false)));
        assertEquals(first, wrongSequence.offset());
        assertEquals("sequence number 7", wrongSequence.found());

        CorruptFileException wrongTask = refusedWith(withRecordInSlot(goodJournal, 0, 1,
                new SionJournalRecord(1, 1, 0, 10, false)));
        assertEquals(first, wrongTask.offset());
        assertEquals("local task 1", wrongTask.found());
    }

    @Test
    void aHeaderChecksumMismatchShowsBothChecksumsInHex() throws Exception {
        byte[] badHeader = goodJournal.clone();
        badHeader[SionJournalLayout.TASK_COUNT_OFFSET + 3] ^= 1;
        CorruptFileException header = refusedWith(badHeader);
        int stored = ByteBuffer.wrap(goodJournal).getInt(SionJournalLayout.HEADER_CHECKSUM_OFFSET);
        int computed = SionJournalLayout.headerChecksum(ByteBuffer.wrap(badHeader));
        assertEquals(String.format("%08x", stored), header.found());
        assertEquals(String.format("%08x", computed) + " (computed over bytes 0.."
                + (SionJournalLayout.HEADER_CHECKSUM_OFFSET - 1) + ")", header.expected());
    }

    @Test
    void aJournalWithABadHeaderIsClosedAgain() throws Exception {
        byte[] badMagic = goodJournal.clone();
        badMagic[0] ^= 1;
        Files.write(journal, badMagic);
        TrackingOpener opener = new TrackingOpener();
        assertThrows(CorruptFileException.class,
                () -> SionRecovery.recover(sion, SionRecoveryMode.EVERY_RECORD, opener));
        assertEquals(List.of(), opener.stillOpen());
    }

    @Test
    void theJournalEndingInsideABlockLeavesTheRestOfItUnused() throws Exception {
        // 129 records of rank 0: the 129th is the first slot of its second block, where the journal ends.
        List<SionJournalRecord> records = new ArrayList<>();
        for (long sequence = 1; sequence <= 129; sequence++) {
            records.add(inChunk0(sequence, false));
        }
        byte[] bytes = withRecordsOfTask0(goodJournal, records);
        int end = (int) SionJournalLayout.recordOffset(TASKS, 0, 129) + SionJournalLayout.RECORD_SIZE;
        Files.write(journal, Arrays.copyOf(bytes, end));
        RecoveredTask rank0 = SionRecovery.recover(sion).tasks().get(0);
        assertArrayEquals(new long[] {129 / 3}, rank0.bytesPerChunk());
        assertEquals(129, rank0.journalRecords());
        assertEquals(OptionalLong.empty(), rank0.damagedRecordOffset(), "an unused slot ended the run, not damage");
    }

    @Test
    void onlyTheBlockOfATornRecordIsSearchedForValidRecordsBehindIt() throws Exception {
        // Records 1..4, a torn record 5, nothing up to the block's end at 128, a valid record 129 in the next block.
        List<SionJournalRecord> records = new ArrayList<>();
        for (long sequence = 1; sequence <= 5; sequence++) {
            records.add(inChunk0(sequence, false));
        }
        records.add(inChunk0(129, false));
        byte[] bytes = withRecordsOfTask0(goodJournal, records);
        int torn = (int) SionJournalLayout.recordOffset(TASKS, 0, 5);
        bytes[torn + SionJournalLayout.RECORD_BYTES_OFFSET + 7] ^= 1;
        Files.write(journal, bytes);
        RecoveredTask rank0 = SionRecovery.recover(sion).tasks().get(0);
        assertArrayEquals(new long[] {4 / 3}, rank0.bytesPerChunk());
        assertEquals(OptionalLong.of(torn), rank0.damagedRecordOffset());
    }

    @Test
    void anUnusedSlotWithAForcedRecordAndAnotherBehindItAcrossABlockEndIsCorruption() throws Exception {
        // Records 1..126, slot 127 unused, 128 (its block's last) valid and forced, 129 (the next block's first) valid.
        List<SionJournalRecord> records = new ArrayList<>();
        for (long sequence = 1; sequence <= 129; sequence++) {
            if (sequence != 127) {
                records.add(inChunk0(sequence, sequence == 128));
            }
        }
        CorruptFileException corrupt = refusedWith(withRecordsOfTask0(goodJournal, records));
        assertEquals(SionJournalLayout.recordOffset(TASKS, 0, 127), corrupt.offset());
        assertEquals("record 127 of task 0", corrupt.field());
        assertEquals("a valid record (record 128 behind it, at offset " + SionJournalLayout.recordOffset(TASKS, 0, 128)
                + ", is valid and forced, and record 129 behind that is valid too: that flush returned, so forcing the"
                + " journal had put every record before it on disk)", corrupt.expected());
        assertEquals("an unused slot (32 zero bytes)", corrupt.found());
    }

    @Test
    void theJournalHeaderIsReadBackAndAFileWithoutJournalHasNone() throws Exception {
        SionJournalHeader header = SionRecovery.journalHeader(sion).orElseThrow();
        assertEquals(SionJournalLayout.decodeHeader(ByteBuffer.wrap(goodJournal)), header);
        assertEquals(TASKS, header.taskCount());
        assertEquals(journalId, header.journalId());
        SionRecovery.recover(sion);
        assertEquals(Optional.empty(), SionRecovery.journalHeader(sion), "recovery removed the journal");
    }

    @Test
    void aClosedFileOrSetIsRefusedNamingWhereItsMeta2Starts() throws Exception {
        Path single = directory.resolve("closed.sion");
        Path set = directory.resolve("set.sion");
        int[] records = {3, 3};
        SionRecoveryTest.writeWithCrashSnapshot(single, 1, records, records, records, null, SionWriteOptions.defaults());
        SionRecoveryTest.writeWithCrashSnapshot(set, 2, records, records, records, null, SionWriteOptions.defaults());
        assertEquals(" the file is already closed (start_of_varheader = " + startOfMeta2(single)
                + "): there is nothing to recover, open it as it is", refusal(single));
        assertEquals(" every file of the set is already closed (start_of_varheader = " + startOfMeta2(set)
                + " in file 0): there is nothing to recover, open it as it is", refusal(set));
    }

    private static long startOfMeta2(Path file) throws IOException {
        try (SionFile closed = SionFile.open(file)) {
            return closed.physicalFiles().get(0).meta1().startOfMeta2();
        }
    }

    /** The message of the refusal to recover {@code file}, after the file name and its colon. */
    private static String refusal(Path file) {
        SionRecoveryRefusedException refused = assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(file));
        assertEquals(SionRecoveryRefusedException.Reason.ALREADY_CLOSED, refused.reason());
        return refused.getMessage().substring(refused.getMessage().indexOf(':') + 1);
    }

    /**
     * Writes {@code sionBytes} as the crashed file and returns the journal with a header that
     * vouches for its META1 head: what the writer of such a META1 would have left.
     */
    private byte[] withMeta1(byte[] sionBytes) throws IOException {
        Files.write(sion, sionBytes);
        SionJournalHeader good = SionJournalLayout.decodeHeader(ByteBuffer.wrap(goodJournal));
        int headChecksum = SionJournalLayout.meta1HeadChecksum(
                ByteBuffer.wrap(sionBytes, 0, (int) Meta1Layout.maxChunksOffset(TASKS)));
        byte[] vouching = goodJournal.clone();
        SionJournalLayout.encodeHeader(new SionJournalHeader(good.fileNumber(), good.fileCount(), good.taskCount(),
                good.journalId(), headChecksum)).get(0, vouching, 0, SionJournalLayout.HEADER_SIZE);
        return vouching;
    }

    @Test
    void aNegativeChunkCapacityInAnUnclosedFileIsCorrupt() throws Exception {
        byte[] file = Files.readAllBytes(sion);
        int capacity1 = (int) Meta1Layout.chunkCapacityOffset(TASKS, 1);
        Arrays.fill(file, capacity1, capacity1 + 8, (byte) 0xff); // -1 in either byte order
        CorruptFileException refused = refusedWith(withMeta1(file));
        assertEquals(sion, refused.file());
        assertEquals(capacity1, refused.offset());
        assertEquals("chunksize[1]", refused.field());
        assertEquals("0.." + (Long.MAX_VALUE - GEOMETRY.taskStart(1))
                + " (a row of chunks must not overflow a 64-bit offset)", refused.expected());
        assertEquals("-1", refused.found());
    }

    @Test
    void aMeta1HeadQuiresWriterWouldNotLayOutIsRefusedEvenWithAJournalForIt() throws Exception {
        // The global ranks swapped, and a journal header that vouches for the swapped head.
        byte[] file = Files.readAllBytes(sion);
        int rank0 = (int) Meta1Layout.globalRankOffset(TASKS, 0);
        int rank1 = (int) Meta1Layout.globalRankOffset(TASKS, 1);
        byte[] swapped = file.clone();
        System.arraycopy(file, rank0, swapped, rank1, 8);
        System.arraycopy(file, rank1, swapped, rank0, 8);
        CorruptFileException refused = refusedWith(withMeta1(swapped));
        assertEquals(sion, refused.file());
        int differs = Arrays.mismatch(file, swapped);
        assertEquals(differs, refused.offset());
        assertEquals("META1", refused.structure());
        assertEquals("head byte " + differs, refused.field());
        assertEquals(String.format("%02x (as Quire's parallel writer lays out these capacities)", file[differs]),
                refused.expected());
        assertArrayEquals(swapped, Files.readAllBytes(sion), "nothing was written");
    }
}
