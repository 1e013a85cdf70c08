package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.sion.SionSerialWriterTest.pattern;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.CorruptFileException;

/**
 * Crash recovery of parallel-written files. A crash is taken as a snapshot: while every rank
 * waits at a barrier, rank 0 copies the SION files and journals elsewhere (what a killed job
 * leaves behind: the data and records the ranks had written are in the files), then the job goes
 * on and closes normally. {@link SionRecovery} then closes the snapshot.
 */
class SionRecoveryTest {

    private static final int FS_BLOCK_SIZE = 64;

    @TempDir
    Path directory;

    /** Record lengths of rank r: varied, one larger than its chunk, some that skip a chunk's rest. */
    static int recordLength(int rank, int record) {
        return record % 7 == 5 ? 3 * (int) requestedChunkSize(rank) : (rank * 37 + record * 53) % 150;
    }

    static long requestedChunkSize(int rank) {
        return 100 + 50L * rank;
    }

    /** Bytes rank r has written after its first {@code records} records. */
    static long streamLength(int rank, int records) {
        long length = 0;
        for (int record = 0; record < records; record++) {
            length += recordLength(rank, record);
        }
        return length;
    }

    /**
     * Writes {@code records[rank]} records per rank, flushing after the first {@code flushed[rank]}
     * records (none if 0); after all ranks wrote their first {@code beforeCrash[rank]} records a
     * snapshot of the files goes to {@code crashDirectory}; then the ranks write the rest and close.
     */
    static void writeWithCrashSnapshot(Path name, int files, int[] flushed, int[] beforeCrash, int[] records,
                                        Path crashDirectory, SionWriteOptions options) throws Exception {
        int ranks = records.length;
        ThreadGroupCollectives.run(ranks, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, requestedChunkSize(rank), files,
                    FS_BLOCK_SIZE, options)) {
                long position = 0;
                for (int record = 0; record < records[rank]; record++) {
                    if (record == beforeCrash[rank]) {
                        break;
                    }
                    position = writeRecord(writer, rank, record, position);
                    if (record + 1 == flushed[rank]) {
                        writer.flush();
                    }
                }
                collectives.barrier();
                if (rank == 0 && crashDirectory != null) {
                    snapshot(name, files, crashDirectory);
                }
                collectives.barrier();
                for (int record = beforeCrash[rank]; record < records[rank]; record++) {
                    position = writeRecord(writer, rank, record, position);
                }
            }
            return null;
        });
    }

    private static long writeRecord(SionParallelWriter writer, int rank, int record, long position) throws IOException {
        int length = recordLength(rank, record);
        writer.write(pattern(rank, position, length));
        return position + length;
    }

    /** Copies the files of set {@code name} and their journals to {@code crashDirectory}: what a crash leaves. */
    static void snapshot(Path name, int files, Path crashDirectory) throws IOException {
        Files.createDirectories(crashDirectory);
        for (int file = 0; file < files; file++) {
            Path physical = SionFileNames.physicalFile(name, file);
            Files.copy(physical, crashDirectory.resolve(physical.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            Path journal = SionFileNames.journal(physical);
            Files.copy(journal, crashDirectory.resolve(journal.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static int[] filled(int ranks, int value) {
        int[] values = new int[ranks];
        Arrays.fill(values, value);
        return values;
    }

    @ParameterizedTest(name = "{0} ranks, {1} files")
    @CsvSource({"1,1", "3,1", "4,2", "5,2"})
    void recoveryAfterEveryRankFlushedEverythingGivesTheBytesCloseWrites(int ranks, int files) throws Exception {
        Path name = directory.resolve("ckpt.sion");
        Path crash = directory.resolve("crash");
        int[] records = new int[ranks];
        for (int rank = 0; rank < ranks; rank++) {
            records[rank] = 4 + 3 * rank; // rank 0 writes less than rank 4: different chunk counts
        }
        writeWithCrashSnapshot(name, files, records, records, records, crash, SionWriteOptions.defaults());

        SionRecoveryReport report = SionRecovery.recover(crash.resolve("ckpt.sion"));
        for (int file = 0; file < files; file++) {
            Path closed = SionFileNames.physicalFile(name, file);
            Path recovered = crash.resolve(closed.getFileName());
            assertEquals(-1, Files.mismatch(closed, recovered), "file " + file + " byte for byte as close wrote it");
            assertFalse(Files.exists(SionFileNames.journal(closed)), "close deletes the journal");
            assertFalse(Files.exists(SionFileNames.journal(recovered)), "recovery deletes the journal");
        }
        assertEquals(ranks, report.tasks().size());
        for (int rank = 0; rank < ranks; rank++) {
            RecoveredTask task = report.tasks().get(rank);
            assertEquals(rank, task.globalRank());
            assertEquals(streamLength(rank, records[rank]), task.totalBytes());
            assertEquals(OptionalLong.empty(), task.damagedRecordOffset());
        }
    }

    @Test
    void recoveryKeepsAtLeastWhatWasFlushedAndOnlyAPrefixOfWhatWasWritten() throws Exception {
        Path name = directory.resolve("partial.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {3, 0, 6, 9};       // rank 1 never flushes
        int[] beforeCrash = {5, 4, 6, 12};  // ranks 0, 1, 3 wrote more than they flushed
        int[] records = {10, 10, 10, 14};
        writeWithCrashSnapshot(name, 2, flushed, beforeCrash, records, crash, SionWriteOptions.defaults());

        SionRecoveryReport report = SionRecovery.recover(crash.resolve("partial.sion"));
        try (SionFile sion = SionFile.open(crash.resolve("partial.sion"))) {
            for (int rank = 0; rank < 4; rank++) {
                byte[] stream = sion.readFully(rank);
                assertTrue(stream.length >= streamLength(rank, flushed[rank]), "rank " + rank + " lost flushed bytes");
                assertTrue(stream.length <= streamLength(rank, beforeCrash[rank]), "rank " + rank);
                assertArrayEquals(pattern(rank, 0, stream.length), stream, "rank " + rank + " is a prefix");
                assertEquals(report.tasks().get(rank).totalBytes(), stream.length);
                assertArrayEquals(report.tasks().get(rank).bytesPerChunk(), sion.task(rank).bytesPerChunk());
            }
        }
        // The final files of the same job, closed normally, are untouched by all this.
        try (SionFile sion = SionFile.open(name)) {
            assertEquals(streamLength(3, records[3]), sion.task(3).totalBytes());
        }
    }

    @Test
    void recoveryMatchesACloseAtTheFlushedFillLevels() throws Exception {
        Path name = directory.resolve("levels.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {2, 5, 7};
        int[] records = {9, 9, 9};
        writeWithCrashSnapshot(name, 1, flushed, flushed, records, crash, SionWriteOptions.defaults());
        SionRecovery.recover(crash.resolve("levels.sion"));
        // The same ranks writing only what they had flushed, then closing, at the same name.
        writeWithCrashSnapshot(name, 1, filled(3, 0), flushed, flushed, null, SionWriteOptions.defaults());
        assertEquals(-1, Files.mismatch(name, crash.resolve("levels.sion")));
    }

    @Test
    void keyValueFileWithBigEndianMetadataIsRecoveredAsCloseWritesIt() throws Exception {
        Path name = directory.resolve("kv.sion");
        Path crash = directory.resolve("crash");
        SionWriteOptions options = SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)
                .withMetadataOrder(ByteOrder.BIG_ENDIAN);
        ThreadGroupCollectives.run(3, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 40, 2, 32, options)) {
                writer.writeKeyValue(rank, ByteBuffer.wrap(pattern(rank, 0, 50)));
                writer.writeKeyValue(100, ByteBuffer.wrap(pattern(100, 0, 5 + rank)));
                writer.flush();
                collectives.barrier();
                if (rank == 0) {
                    snapshot(name, 2, crash);
                }
                collectives.barrier();
            }
            return null;
        });
        SionRecovery.recover(crash.resolve("kv.sion"));
        for (int file = 0; file < 2; file++) {
            Path closed = SionFileNames.physicalFile(name, file);
            assertEquals(-1, Files.mismatch(closed, crash.resolve(closed.getFileName())), "file " + file);
        }
        try (SionFile sion = SionFile.open(crash.resolve("kv.sion"))) {
            assertEquals(ByteOrder.BIG_ENDIAN, sion.metadataOrder());
            assertArrayEquals(pattern(2, 0, 50), sion.readKey(2, 2));
            assertArrayEquals(pattern(100, 0, 7), sion.readKey(2, 100));
        }
    }

    /**
     * Key-value records spanning chunks of 128 bytes: A (flushed), B (flushed), then C, inside
     * which the writer dies. The journal then holds chunk-end records that fall inside B or C.
     * Each prefix of the journal is a state that a process death during the writes can leave
     * (every record is appended after the data it describes); each must recover to whole records.
     */
    @ParameterizedTest(name = "A of {0} bytes, B of {1}")
    @CsvSource({"40,150", "104,300", "112,100", "0,400", "150,7"})
    void keyValueRecoveryEndsAtTheLastCompleteRecordWhereverTheWriterDied(int lengthA, int lengthB) throws Exception {
        Path name = directory.resolve("kvspan.sion");
        Path crash = directory.resolve("crash");
        int[] lengths = {lengthA, lengthB, 300};
        ThreadGroupCollectives.run(1, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE))) {
                for (int record = 0; record < lengths.length; record++) {
                    writer.writeKeyValue(record, ByteBuffer.wrap(pattern(record, 0, lengths[record])));
                    if (record < 2) {
                        writer.flush();
                    }
                }
                snapshot(name, 1, crash);
            }
            return null;
        });
        Path sion = crash.resolve("kvspan.sion");
        Path journal = SionFileNames.journal(sion);
        byte[] crashedFile = Files.readAllBytes(sion);
        byte[] fullJournal = Files.readAllBytes(journal);
        long journalRecords = journalRecordsOf(fullJournal, 0);
        assertTrue(journalRecords >= 4, "chunk ends inside B or C were journalled: " + journalRecords);
        long flushedBytes = 2 * KeyValueRecordLayout.HEADER_SIZE + lengthA + lengthB;
        boolean someRecordWasCut = false;
        for (long kept = 0; kept <= journalRecords; kept++) {
            byte[] prefix = fullJournal.clone();
            int dropFrom = (int) SionJournalLayout.recordOffset(1, 0, kept + 1);
            Arrays.fill(prefix, dropFrom, (int) SionJournalLayout.recordOffset(1, 0, journalRecords + 1), (byte) 0);
            Files.write(sion, crashedFile);
            Files.write(journal, prefix);
            RecoveredTask task = SionRecovery.recover(sion).tasks().get(0);
            someRecordWasCut |= task.bytesCutToRecordBoundary() > 0;
            String what = kept + " journal records kept";
            try (SionFile recovered = SionFile.open(sion)) {
                List<KeyValueRecord> records = recovered.keyValueRecords(0);
                byte[] stream = recovered.readFully(0);
                long end = 0;
                for (int record = 0; record < records.size(); record++) {
                    KeyValueRecord found = records.get(record);
                    assertEquals(record, found.key(), what);
                    assertArrayEquals(pattern(record, 0, lengths[record]), Arrays.copyOfRange(stream,
                            (int) found.dataPosition(), (int) (found.dataPosition() + found.length())), what);
                    end = found.dataPosition() + found.length();
                }
                assertEquals(stream.length, end, what + ": the stream ends at a record boundary");
                assertEquals(task.totalBytes(), stream.length, what);
                if (kept >= journalRecordsAtFlush(fullJournal, flushedBytes)) {
                    assertTrue(records.size() >= 2, what + ": both flushed records are there");
                }
            }
        }
        assertTrue(someRecordWasCut, "some journal prefix ended inside a record");

        Files.write(sion, crashedFile);
        Files.write(journal, fullJournal);
        RecoveredTask flushedOnly = SionRecovery.recover(sion, SionRecoveryMode.FLUSHED_ONLY).tasks().get(0);
        assertEquals(flushedBytes, flushedOnly.totalBytes(), "ends at the flush after B");
        assertEquals(0, flushedOnly.bytesCutToRecordBoundary());
        try (SionFile recovered = SionFile.open(sion)) {
            assertEquals(2, recovered.keyValueRecords(0).size());
        }
    }

    /** Valid records task {@code localTask} of a one-task journal holds (its run up to the first unused slot). */
    private static long journalRecordsOf(byte[] journal, int localTask) {
        long records = 0;
        while (true) {
            int at = (int) SionJournalLayout.recordOffset(1, localTask, records + 1);
            if (at >= journal.length || Arrays.equals(journal, at, at + SionJournalLayout.RECORD_SIZE,
                    new byte[SionJournalLayout.RECORD_SIZE], 0, SionJournalLayout.RECORD_SIZE)) {
                return records;
            }
            records++;
        }
    }

    /** Sequence number of the first record of a one-task journal whose chunks add up to {@code bytes}. */
    private static long journalRecordsAtFlush(byte[] journal, long bytes) {
        long[] fills = new long[64];
        for (long sequence = 1; ; sequence++) {
            SionJournalRecord record = SionJournalLayout.decodeRecord(ByteBuffer.wrap(journal,
                    (int) SionJournalLayout.recordOffset(1, 0, sequence), SionJournalLayout.RECORD_SIZE).slice());
            fills[(int) record.chunk()] = record.bytes();
            if (Arrays.stream(fills).sum() == bytes) {
                return sequence;
            }
        }
    }

    /**
     * A power failure: the journal page reached the disk, but the data and the file size written
     * after the last flush did not. Chunk-end records are not forced, so only the records that
     * flush() wrote after forcing the data may be trusted.
     */
    @Test
    void flushedOnlyRecoveryTrustsOnlyRecordsWrittenAfterTheDataWasForced() throws Exception {
        Path name = directory.resolve("power.sion");
        Path crash = directory.resolve("crash");
        ThreadGroupCollectives.run(2, collectives -> {
            int rank = collectives.rank();
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults())) {
                for (int record = 0; record < 4 && rank == 0; record++) { // chunks of 128: each record starts a chunk
                    writer.write(pattern(0, 100L * record, 100));
                    if (record == 1) {
                        writer.flush();
                    }
                }
                writer.write(pattern(rank, 0, 10 * rank)); // rank 1 writes 10 bytes and never flushes
                collectives.barrier();
                if (rank == 0) {
                    snapshot(name, 1, crash);
                }
                collectives.barrier();
            }
            return null;
        });
        Path sion = crash.resolve("power.sion");
        byte[] journal = Files.readAllBytes(SionFileNames.journal(sion));
        boolean[] forced = new boolean[4];
        for (int sequence = 1; sequence <= 4; sequence++) {
            forced[sequence - 1] = SionJournalLayout.decodeRecord(ByteBuffer.wrap(journal,
                    (int) SionJournalLayout.recordOffset(2, 0, sequence), SionJournalLayout.RECORD_SIZE).slice()).forced();
        }
        assertArrayEquals(new boolean[] {false, true, false, false}, forced,
                "chunk 0 left, flush in chunk 1, chunks 1 and 2 left");

        byte[] crashedFile = Files.readAllBytes(sion);
        byte[] crashedJournal = journal.clone();
        SionRecoveryReport every = SionRecovery.recover(sion, SionRecoveryMode.EVERY_RECORD);
        assertArrayEquals(new long[] {100, 100, 100}, every.tasks().get(0).bytesPerChunk());
        assertEquals(4, every.tasks().get(0).journalRecords());
        assertEquals(3, every.tasks().get(0).chunkCount());
        assertEquals(300 + every.tasks().get(1).totalBytes(), every.totalBytes(), "the report sums its tasks");

        Files.write(sion, crashedFile);
        Files.write(SionFileNames.journal(sion), crashedJournal);
        SionRecoveryReport flushedOnly = SionRecovery.recover(sion, SionRecoveryMode.FLUSHED_ONLY);
        assertArrayEquals(new long[] {100, 100}, flushedOnly.tasks().get(0).bytesPerChunk());
        assertEquals(2, flushedOnly.tasks().get(0).journalRecords());
        assertArrayEquals(new long[] {0}, flushedOnly.tasks().get(1).bytesPerChunk(), "rank 1 never flushed");
        assertEquals(0, flushedOnly.tasks().get(1).journalRecords());
        try (SionFile recovered = SionFile.open(sion)) {
            assertArrayEquals(pattern(0, 0, 200), recovered.readFully(0));
        }

        // An unused slot ends the run when only unforced records follow it (they can reach the disk out of order
        // after a power failure), but a forced record behind it proves the slot was written: corruption.
        byte[] gapBeforeUnforced = crashedJournal.clone();
        int third = (int) SionJournalLayout.recordOffset(2, 0, 3);
        Arrays.fill(gapBeforeUnforced, third, third + SionJournalLayout.RECORD_SIZE, (byte) 0);
        Files.write(sion, crashedFile);
        Files.write(SionFileNames.journal(sion), gapBeforeUnforced);
        assertArrayEquals(new long[] {100, 100}, SionRecovery.recover(sion).tasks().get(0).bytesPerChunk());
        byte[] gapBeforeForced = crashedJournal.clone();
        int first = (int) SionJournalLayout.recordOffset(2, 0, 1);
        Arrays.fill(gapBeforeForced, first, first + SionJournalLayout.RECORD_SIZE, (byte) 0);
        Files.write(sion, crashedFile);
        Files.write(SionFileNames.journal(sion), gapBeforeForced);
        CorruptFileException gap = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
        assertEquals(first, gap.offset());
        assertEquals("an unused slot (32 zero bytes)", gap.found());
        assertTrue(gap.expected().contains("record 2 behind it, at offset " + (first + 32) + ", is valid and forced"),
                gap.expected());
        // But a forced record that is the task's last may follow a gap: its flush died in the journal force, and
        // the disk sector holding it was written before the one holding the earlier records (found by
        // SionCrashSimulationTest). The run ends at the gap, before that flush, which never returned.
        byte[] gapBeforeLastForced = gapBeforeForced.clone();
        Arrays.fill(gapBeforeLastForced, third, third + 2 * SionJournalLayout.RECORD_SIZE, (byte) 0);
        for (SionRecoveryMode mode : SionRecoveryMode.values()) {
            Files.write(sion, crashedFile);
            Files.write(SionFileNames.journal(sion), gapBeforeLastForced);
            RecoveredTask task = SionRecovery.recover(sion, mode).tasks().get(0);
            assertArrayEquals(new long[] {0}, task.bytesPerChunk(), mode.toString());
            assertEquals(0, task.journalRecords(), mode.toString());
        }

        // The file as the disk holds it after the power failure: it ends behind the flushed data of chunk 1.
        ChunkGeometry geometry = ChunkGeometry.fromCapacities(FS_BLOCK_SIZE, new long[] {128, 128});
        long endOfFlushedData = geometry.chunkOffset(0, 1) + 100;
        Files.write(sion, Arrays.copyOf(crashedFile, (int) endOfFlushedData));
        Files.write(SionFileNames.journal(sion), crashedJournal);
        CorruptFileException beyondEnd = assertThrows(CorruptFileException.class,
                () -> SionRecovery.recover(sion, SionRecoveryMode.EVERY_RECORD));
        assertEquals(SionJournalLayout.recordOffset(2, 0, 4) + SionJournalLayout.RECORD_BYTES_OFFSET,
                beyondEnd.offset(), "the unforced record of chunk 2 claims bytes the disk does not hold");
        assertTrue(beyondEnd.expected().endsWith("recover with FLUSHED_ONLY (quire sion recover --flushed-only))"),
                beyondEnd.expected());
        SionRecovery.recover(sion, SionRecoveryMode.FLUSHED_ONLY);
        try (SionFile recovered = SionFile.open(sion)) {
            assertArrayEquals(pattern(0, 0, 200), recovered.readFully(0));
            assertEquals(0, recovered.task(1).totalBytes());
        }
    }

    @Test
    void recoveryInterruptedBeforeFileZeroWasClosedCanRunAgain() throws Exception {
        Path name = directory.resolve("again.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {5, 8, 3};
        writeWithCrashSnapshot(name, 2, flushed, flushed, new int[] {9, 9, 9}, crash, SionWriteOptions.defaults());
        Path crashed = crash.resolve("again.sion");
        byte[] fileZero = Files.readAllBytes(crashed);
        byte[][] journals = new byte[2][];
        for (int file = 0; file < 2; file++) {
            journals[file] = Files.readAllBytes(SionFileNames.journal(SionFileNames.physicalFile(crashed, file)));
        }
        SionRecovery.recover(crashed);
        byte[] recoveredMember = Files.readAllBytes(SionFileNames.physicalFile(crashed, 1));
        byte[] recoveredZero = Files.readAllBytes(crashed);

        // As if recovery had died after closing file 1 but before file 0: file 0 and both journals as before.
        Files.write(crashed, fileZero);
        for (int file = 0; file < 2; file++) {
            Files.write(SionFileNames.journal(SionFileNames.physicalFile(crashed, file)), journals[file]);
        }
        SionRecovery.recover(crashed);
        assertArrayEquals(recoveredZero, Files.readAllBytes(crashed));
        assertArrayEquals(recoveredMember, Files.readAllBytes(SionFileNames.physicalFile(crashed, 1)));
    }

    @Test
    void chunksLeftBeforeTheCrashAreRecoveredWithoutAFlush() throws Exception {
        Path name = directory.resolve("unflushed.sion");
        Path crash = directory.resolve("crash");
        ThreadGroupCollectives.run(1, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults())) {
                for (int record = 0; record < 3; record++) { // chunks of 128: each record starts a chunk
                    writer.write(pattern(0, 100L * record, 100));
                }
                snapshot(name, 1, crash);
            }
            return null;
        });
        SionRecoveryReport report = SionRecovery.recover(crash.resolve("unflushed.sion"));
        assertArrayEquals(new long[] {100, 100}, report.tasks().get(0).bytesPerChunk(),
                "the journal records each chunk the task left; the third, never flushed, is lost");
        try (SionFile sion = SionFile.open(crash.resolve("unflushed.sion"))) {
            assertArrayEquals(pattern(0, 0, 200), sion.readFully(0));
        }
    }

    @Test
    void jobThatDiedAfterClosingFileZeroButNotItsMemberIsCompleted() throws Exception {
        Path name = directory.resolve("half.sion");
        Path crash = directory.resolve("crash");
        Path recoveredCopy = directory.resolve("recovered");
        int[] flushed = {4, 6, 7};
        writeWithCrashSnapshot(name, 2, flushed, flushed, new int[] {9, 9, 9}, crash, SionWriteOptions.defaults());
        Path crashed = crash.resolve("half.sion");
        Path member = SionFileNames.physicalFile(crashed, 1);
        byte[] unclosedMember = Files.readAllBytes(member);
        byte[] memberJournal = Files.readAllBytes(SionFileNames.journal(member));
        SionRecovery.recover(crashed);
        Files.createDirectories(recoveredCopy);
        Files.copy(member, recoveredCopy.resolve("member"));
        Files.copy(crashed, recoveredCopy.resolve("zero"));

        // File 0 closed (its journal gone), file 1 still as the crash left it.
        Files.write(member, unclosedMember);
        Files.write(SionFileNames.journal(member), memberJournal);
        SionRecoveryReport report = SionRecovery.recover(crashed);
        assertEquals(-1, Files.mismatch(recoveredCopy.resolve("member"), member));
        assertEquals(-1, Files.mismatch(recoveredCopy.resolve("zero"), crashed), "a closed file is kept as it was");
        assertTrue(report.tasks().get(0).fileWasClosed());
        assertFalse(report.tasks().get(2).fileWasClosed());
        assertEquals(streamLength(0, 4), report.tasks().get(0).totalBytes());
        assertEquals(streamLength(2, 7), report.tasks().get(2).totalBytes());

        SionRecoveryRefusedException refused = assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(crashed));
        assertTrue(refused.getMessage().contains("every file of the set is already closed"), refused.getMessage());
    }

    @Test
    void aTaskWithNoRecordGetsOneChunkOfZeroBytes() throws Exception {
        Path name = directory.resolve("idle.sion");
        Path crash = directory.resolve("crash");
        int[] nothing = filled(3, 0);
        writeWithCrashSnapshot(name, 1, nothing, nothing, new int[] {0, 0, 4}, crash, SionWriteOptions.defaults());
        SionRecoveryReport report = SionRecovery.recover(crash.resolve("idle.sion"));
        for (RecoveredTask task : report.tasks()) {
            assertArrayEquals(new long[] {0}, task.bytesPerChunk());
            assertEquals(0, task.journalRecords());
        }
        try (SionFile sion = SionFile.open(crash.resolve("idle.sion"))) {
            assertEquals(1, sion.physicalFiles().get(0).meta1().maxChunks());
            assertEquals(0, sion.task(2).totalBytes());
        }
    }

    @Test
    void tornOrDamagedLastRecordIsIgnored() throws Exception {
        Path name = directory.resolve("torn.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {3, 3};
        writeWithCrashSnapshot(name, 1, flushed, flushed, new int[] {3, 3}, crash, SionWriteOptions.defaults());
        Path journal = SionFileNames.journal(crash.resolve("torn.sion"));
        int taskCount = 2;
        // Rank 0 wrote 0, 53, 106 bytes into chunks of 128: chunk 0 left at 53 (record 1), flush in chunk 1 (record 2).
        // Rank 1 wrote 37, 90, 143 bytes into chunks of 192: chunk 0 left at 127 (record 1), flush (record 2).
        long lastOfRank0 = SionJournalLayout.recordOffset(taskCount, 0, 2);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {0x55}), lastOfRank0 + SionJournalLayout.RECORD_BYTES_OFFSET + 7);
        }
        long lastOfRank1 = SionJournalLayout.recordOffset(taskCount, 1, 1);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.truncate(lastOfRank1 + SionJournalLayout.RECORD_SIZE / 2); // torn: half a record reached the disk
        }
        SionRecoveryReport report = SionRecovery.recover(crash.resolve("torn.sion"));
        RecoveredTask rank0 = report.tasks().get(0);
        assertArrayEquals(new long[] {53}, rank0.bytesPerChunk(), "the chunk-0 record survives");
        assertEquals(1, rank0.journalRecords());
        assertEquals(OptionalLong.of(lastOfRank0), rank0.damagedRecordOffset());
        RecoveredTask rank1 = report.tasks().get(1);
        assertArrayEquals(new long[] {0}, rank1.bytesPerChunk());
        assertEquals(OptionalLong.of(lastOfRank1), rank1.damagedRecordOffset());
        try (SionFile sion = SionFile.open(crash.resolve("torn.sion"))) {
            assertArrayEquals(pattern(0, 0, 53), sion.readFully(0));
        }
    }

    @Test
    void everyTornOrBitFlippedLastRecordFallsBackToTheRecordBefore() throws Exception {
        Path name = directory.resolve("flips.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {3, 3};
        writeWithCrashSnapshot(name, 1, flushed, flushed, flushed, crash, SionWriteOptions.defaults());
        Path sion = crash.resolve("flips.sion");
        Path journal = SionFileNames.journal(sion);
        byte[] crashedFile = Files.readAllBytes(sion);
        byte[] goodJournal = Files.readAllBytes(journal);
        int lastOfRank0 = (int) SionJournalLayout.recordOffset(2, 0, 2); // rank 0: (chunk 0, 53), then (chunk 1, 106)

        for (int damage = 0; damage < SionJournalLayout.RECORD_SIZE + 8 * SionJournalLayout.RECORD_SIZE; damage++) {
            byte[] damaged = goodJournal.clone();
            String what;
            if (damage < SionJournalLayout.RECORD_SIZE) {
                what = "torn after " + damage + " bytes";  // the slot was zero before the write
                Arrays.fill(damaged, lastOfRank0 + damage, lastOfRank0 + SionJournalLayout.RECORD_SIZE, (byte) 0);
            } else {
                int bit = damage - SionJournalLayout.RECORD_SIZE;
                what = "bit " + bit + " flipped";
                damaged[lastOfRank0 + bit / 8] ^= (byte) (1 << (bit % 8));
            }
            Files.write(sion, crashedFile);
            Files.write(journal, damaged);
            RecoveredTask rank0 = SionRecovery.recover(sion).tasks().get(0);
            if (Arrays.equals(damaged, goodJournal)) {
                // The record's last bytes were zeros already (its CRC varies with the random
                // journal id): this tear changed nothing, and the record stands.
                assertArrayEquals(new long[] {53, 106}, rank0.bytesPerChunk(), what);
                continue;
            }
            assertArrayEquals(new long[] {53}, rank0.bytesPerChunk(), what);
            boolean slotLeftZero = Arrays.equals(damaged, lastOfRank0, lastOfRank0 + SionJournalLayout.RECORD_SIZE,
                    new byte[SionJournalLayout.RECORD_SIZE], 0, SionJournalLayout.RECORD_SIZE);
            // A tear that left only zeros looks like an unused slot; anything else is a damaged record.
            assertEquals(slotLeftZero ? OptionalLong.empty() : OptionalLong.of(lastOfRank0), rank0.damagedRecordOffset(),
                    what);
        }
        Files.write(sion, crashedFile);
        Files.write(journal, goodJournal);
        assertArrayEquals(new long[] {53, 106}, SionRecovery.recover(sion).tasks().get(0).bytesPerChunk());
    }

    @Test
    void refusesAFileItsWriterClosed() throws Exception {
        Path name = directory.resolve("closed.sion");
        writeWithCrashSnapshot(name, 1, filled(2, 0), filled(2, 3), filled(2, 3), null, SionWriteOptions.defaults());
        byte[] before = Files.readAllBytes(name);
        SionRecoveryRefusedException refused = assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(name));
        assertEquals(SionRecoveryRefusedException.Reason.ALREADY_CLOSED, refused.reason());
        assertTrue(refused.getMessage().contains("is already closed"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(name));
    }

    @Test
    void refusesWithoutAJournalAndTheJournalOffOptionWritesNone() throws Exception {
        Path name = directory.resolve("nojournal.sion");
        Path crash = directory.resolve("crash");
        SionWriteOptions noJournal = SionWriteOptions.defaults().withJournal(false);
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    noJournal)) {
                writer.write(pattern(collectives.rank(), 0, 10));
                writer.flush();
                collectives.barrier();
                if (collectives.rank() == 0) {
                    assertFalse(Files.exists(SionFileNames.journal(name)));
                    Files.createDirectories(crash);
                    Files.copy(name, crash.resolve("nojournal.sion"));
                }
                collectives.barrier();
            }
            return null;
        });
        SionRecoveryRefusedException refused = assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(crash.resolve("nojournal.sion")));
        assertEquals(SionRecoveryRefusedException.Reason.JOURNAL_MISSING, refused.reason());
        assertTrue(refused.getMessage().contains("nojournal.sion.journal"), refused.getMessage());
        SionNotClosedException notClosed = assertThrows(SionNotClosedException.class,
                () -> SionFile.open(crash.resolve("nojournal.sion")));
        assertNull(notClosed.journal());
        assertTrue(notClosed.getMessage().endsWith("; there is no recovery journal beside it (written with the journal"
                + " off, or by another writer than Quire's parallel writer), so it cannot be recovered"),
                notClosed.getMessage());
    }

    /** Opening a crashed file points to recovery only because its journal is there. */
    @Test
    void anUnclosedFileWithItsJournalPointsToRecovery() throws Exception {
        Path name = directory.resolve("hint.sion");
        Path crash = directory.resolve("crash");
        int[] records = filled(2, 3);
        writeWithCrashSnapshot(name, 1, records, records, records, crash, SionWriteOptions.defaults());
        Path crashed = crash.resolve("hint.sion");
        SionNotClosedException notClosed = assertThrows(SionNotClosedException.class, () -> SionFile.open(crashed));
        assertEquals(SionFileNames.journal(crashed), notClosed.journal());
        assertTrue(notClosed.getMessage().endsWith("; its recovery journal " + SionFileNames.journal(crashed)
                + " is beside it: 'quire sion recover' (SionRecovery.recover) may recover its data"),
                notClosed.getMessage());
    }

    @Test
    void closeSucceedsOnEveryRankWhenTheJournalIsAlreadyGone() throws Exception {
        Path name = directory.resolve("gone.sion");
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults())) {
                writer.write(pattern(collectives.rank(), 0, 10));
                collectives.barrier();
                if (collectives.rank() == 0) {
                    Files.delete(SionFileNames.journal(name)); // removed by someone else while the job runs
                }
                collectives.barrier();
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name)) {
            assertArrayEquals(pattern(1, 0, 10), sion.readFully(1));
        }
        assertFalse(Files.exists(SionFileNames.journal(name)));
    }

    @Test
    void journalOnOrOffWritesTheSameFile() throws Exception {
        Path withJournal = directory.resolve("on.sion");
        Path withoutJournal = directory.resolve("off.sion");
        int[] records = {6, 11, 3};
        writeWithCrashSnapshot(withJournal, 2, filled(3, 2), records, records, null, SionWriteOptions.defaults());
        writeWithCrashSnapshot(withoutJournal, 2, filled(3, 2), records, records, null,
                SionWriteOptions.defaults().withJournal(false));
        for (int file = 0; file < 2; file++) {
            byte[] on = Files.readAllBytes(SionFileNames.physicalFile(withJournal, file));
            byte[] off = Files.readAllBytes(SionFileNames.physicalFile(withoutJournal, file));
            // All but META1's prefix, which holds the name passed to open.
            int prefixEnd = Meta1Layout.PREFIX_OFFSET + Meta1Layout.PREFIX_LENGTH;
            assertEquals(on.length, off.length);
            assertArrayEquals(Arrays.copyOfRange(on, prefixEnd, on.length), Arrays.copyOfRange(off, prefixEnd, off.length));
        }
    }

    @Test
    void refusesAJournalOfAnotherFile() throws Exception {
        Path name = directory.resolve("a.sion");
        Path other = directory.resolve("other");
        Path crash = directory.resolve("crash");
        int[] flushed = {2, 2, 2};
        writeWithCrashSnapshot(name, 2, flushed, flushed, flushed, crash, SionWriteOptions.defaults());
        // The same job again at the same name: same META1, but another open of the set.
        writeWithCrashSnapshot(name, 2, flushed, flushed, flushed, other, SionWriteOptions.defaults());
        Path member = crash.resolve("a.sion.000001.journal");
        Files.copy(other.resolve("a.sion.000001.journal"), member, StandardCopyOption.REPLACE_EXISTING);
        SionRecoveryRefusedException refused = assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(crash.resolve("a.sion")));
        assertEquals(SionRecoveryRefusedException.Reason.JOURNAL_OF_ANOTHER_FILE, refused.reason());
        assertTrue(refused.getMessage().contains("another open of the set"), refused.getMessage());

        // A journal written for a file with other chunk sizes.
        Path small = directory.resolve("small.sion");
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(small, collectives, 10, 2, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults())) {
                writer.flush();
                collectives.barrier();
                if (collectives.rank() == 0) {
                    Files.copy(SionFileNames.journal(small), crash.resolve("a.sion.journal"),
                            StandardCopyOption.REPLACE_EXISTING);
                }
                collectives.barrier();
            }
            return null;
        });
        refused = assertThrows(SionRecoveryRefusedException.class, () -> SionRecovery.recover(crash.resolve("a.sion")));
        assertEquals(SionRecoveryRefusedException.Reason.JOURNAL_OF_ANOTHER_FILE, refused.reason());
        assertTrue(refused.getMessage().contains("META1 checksum"), refused.getMessage());
    }

    @Test
    void corruptJournalHeaderAndRecordsContradictingTheFileAreReportedPrecisely() throws Exception {
        Path name = directory.resolve("bad.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {4, 4};
        writeWithCrashSnapshot(name, 1, flushed, flushed, flushed, crash, SionWriteOptions.defaults());
        Path sion = crash.resolve("bad.sion");
        Path journal = SionFileNames.journal(sion);
        byte[] good = Files.readAllBytes(journal);

        byte[] badHeader = good.clone();
        badHeader[SionJournalLayout.TASK_COUNT_OFFSET + 3] ^= 1;
        Files.write(journal, badHeader);
        CorruptFileException header = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
        assertEquals(journal, header.file());
        assertEquals(SionJournalLayout.HEADER_CHECKSUM_OFFSET, header.offset());
        assertEquals("journal header", header.structure());

        // A record with a valid checksum that claims more bytes than the chunk holds.
        byte[] badRecord = good.clone();
        long offset = SionJournalLayout.recordOffset(2, 1, 1);
        long journalId = ByteBuffer.wrap(good).getLong(SionJournalLayout.JOURNAL_ID_OFFSET);
        ByteBuffer record = SionJournalLayout.encodeRecord(journalId, new SionJournalRecord(1, 1, 0, 1_000_000, true));
        record.get(0, badRecord, (int) offset, SionJournalLayout.RECORD_SIZE);
        Files.write(journal, badRecord);
        CorruptFileException contradicting = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
        assertEquals(journal, contradicting.file());
        assertEquals(offset + SionJournalLayout.RECORD_BYTES_OFFSET, contradicting.offset());
        assertEquals("journal record", contradicting.structure());
        assertEquals("1000000", contradicting.found());
        assertTrue(contradicting.expected().contains("capacity 192"), contradicting.expected());

        // Checksum-valid records out of chunk order: a first record not for chunk 0, a skipped chunk,
        // a move to the next chunk without data.
        SionJournalRecord firstOfRank0 = SionJournalLayout.decodeRecord(
                ByteBuffer.wrap(good, (int) SionJournalLayout.recordOffset(2, 0, 1), SionJournalLayout.RECORD_SIZE)
                        .slice());
        assertEquals(0, firstOfRank0.chunk(), "rank 0's first record is for chunk 0");
        for (SionJournalRecord outOfOrder : List.of(new SionJournalRecord(1, 0, 1, 10, false),
                new SionJournalRecord(2, 0, 2, 10, false), new SionJournalRecord(2, 0, 1, 0, false))) {
            byte[] bad = good.clone();
            long at = SionJournalLayout.recordOffset(2, 0, outOfOrder.sequence());
            SionJournalLayout.encodeRecord(journalId, outOfOrder).get(0, bad, (int) at, SionJournalLayout.RECORD_SIZE);
            Files.write(journal, bad);
            CorruptFileException order = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion),
                    outOfOrder.toString());
            assertEquals(journal, order.file());
            assertTrue(order.offset() == at + SionJournalLayout.RECORD_CHUNK_OFFSET
                    || order.offset() == at + SionJournalLayout.RECORD_BYTES_OFFSET, order.getMessage());
        }

        // A checksum-valid record far beyond a task's run of records (a sparse journal of about 1 TiB) is never read.
        Files.write(journal, good);
        long farAway = SionJournalLayout.recordOffset(2, 0, 1L << 34);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.write(SionJournalLayout.encodeRecord(journalId, new SionJournalRecord(1L << 34, 0, 1 << 20, 7, true)),
                    farAway);
        }
        assertTrue(Files.size(journal) > 1L << 39, "a sparse journal of about 1 TiB");
        SionRecovery.recover(sion);
        try (SionFile recovered = SionFile.open(sion)) {
            assertEquals(streamLength(1, 4), recovered.task(1).totalBytes());
        }
    }

    @Test
    void aDamagedRecordWithAValidRecordBehindItIsCorruptionNotATear() throws Exception {
        Path name = directory.resolve("middle.sion");
        Path crash = directory.resolve("crash");
        int[] flushed = {3, 3};
        writeWithCrashSnapshot(name, 1, flushed, flushed, flushed, crash, SionWriteOptions.defaults());
        Path sion = crash.resolve("middle.sion");
        Path journal = SionFileNames.journal(sion);
        byte[] crashedFile = Files.readAllBytes(sion);
        byte[] good = Files.readAllBytes(journal);
        long journalId = ByteBuffer.wrap(good).getLong(SionJournalLayout.JOURNAL_ID_OFFSET);

        // Rank 0: (chunk 0, 53) then the flush (chunk 1, 106). A flipped bit in record 1 hides the flushed record 2.
        byte[] damaged = good.clone();
        int first = (int) SionJournalLayout.recordOffset(2, 0, 1);
        damaged[first + SionJournalLayout.RECORD_BYTES_OFFSET + 7] ^= 1;
        Files.write(journal, damaged);
        CorruptFileException middle = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
        assertEquals(journal, middle.file());
        assertEquals(first, middle.offset());
        assertEquals("journal record", middle.structure());
        assertEquals("record 1 of task 0", middle.field());
        assertTrue(middle.expected().contains("record 2 behind it, at offset " + (first + 32) + ", is valid"),
                middle.expected());
        assertTrue(middle.found().startsWith("CRC32C "), middle.found());
        assertArrayEquals(crashedFile, Files.readAllBytes(sion), "nothing was written");

        // 130 records of rank 0 in chunk 0: record 128 is the last slot of its block, record 129 the next block's first.
        byte[] many = good.clone();
        for (long sequence = 1; sequence <= 130; sequence++) {
            int at = (int) SionJournalLayout.recordOffset(2, 0, sequence);
            many = Arrays.copyOf(many, Math.max(many.length, at + SionJournalLayout.RECORD_SIZE));
            SionJournalLayout.encodeRecord(journalId, new SionJournalRecord(sequence, 0, 0, sequence / 3, false))
                    .get(0, many, at, SionJournalLayout.RECORD_SIZE);
        }
        int lastOfBlock = (int) SionJournalLayout.recordOffset(2, 0, 128);
        byte[] lastSlotDamaged = many.clone();
        lastSlotDamaged[lastOfBlock + SionJournalLayout.RECORD_SEQUENCE_OFFSET + 7] ^= 4;
        Files.write(journal, lastSlotDamaged);
        CorruptFileException blockEnd = assertThrows(CorruptFileException.class, () -> SionRecovery.recover(sion));
        assertEquals(lastOfBlock, blockEnd.offset());
        assertTrue(blockEnd.expected().contains("record 129 behind it, at offset "
                + SionJournalLayout.recordOffset(2, 0, 129)), blockEnd.expected());

        // Damage to the last record is still a tear: the task falls back to the record before.
        byte[] lastDamaged = many.clone();
        int last = (int) SionJournalLayout.recordOffset(2, 0, 130);
        lastDamaged[last + SionJournalLayout.RECORD_TASK_OFFSET] ^= 0x10;
        Files.write(journal, lastDamaged);
        RecoveredTask rank0 = SionRecovery.recover(sion).tasks().get(0);
        assertArrayEquals(new long[] {129 / 3}, rank0.bytesPerChunk());
        assertEquals(129, rank0.journalRecords());
        assertEquals(OptionalLong.of(last), rank0.damagedRecordOffset());
    }

    @Test
    void journalLayoutPlacesEachTasksRecordsInItsOwnBlocks() {
        int taskCount = 3;
        assertEquals(4096, SionJournalLayout.recordOffset(taskCount, 0, 1));
        assertEquals(4096 + 32, SionJournalLayout.recordOffset(taskCount, 0, 2));
        assertEquals(2 * 4096, SionJournalLayout.recordOffset(taskCount, 1, 1));
        assertEquals(3 * 4096 + 127 * 32, SionJournalLayout.recordOffset(taskCount, 2, 128));
        assertEquals(4 * 4096, SionJournalLayout.recordOffset(taskCount, 0, 129), "row 1 follows row 0 of all tasks");
        assertEquals(6 * 4096, SionJournalLayout.recordOffset(taskCount, 2, 129));
        SionJournalRecord record = new SionJournalRecord(7, 2, 3, 99, false);
        ByteBuffer encoded = SionJournalLayout.encodeRecord(42, record);
        assertEquals(record, SionJournalLayout.decodeRecord(encoded));
        SionJournalRecord forced = new SionJournalRecord(8, Integer.MAX_VALUE, 3, 99, true);
        ByteBuffer encodedForced = SionJournalLayout.encodeRecord(42, forced);
        assertEquals(0xffffffff, encodedForced.getInt(SionJournalLayout.RECORD_TASK_OFFSET), "bit 31 and task 2^31-1");
        assertEquals(forced, SionJournalLayout.decodeRecord(encodedForced));
        assertEquals(SionJournalLayout.recordChecksum(42, encoded), SionJournalLayout.storedRecordChecksum(encoded));
        assertTrue(SionJournalLayout.recordChecksum(43, encoded) != SionJournalLayout.storedRecordChecksum(encoded),
                "the checksum ties a record to its journal id");
        SionJournalHeader header = new SionJournalHeader(1, 2, 3, -5, 0x12345678);
        assertEquals(header, SionJournalLayout.decodeHeader(SionJournalLayout.encodeHeader(header)));
    }
}
