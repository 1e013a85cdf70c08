package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Closes a SION file or set whose {@link SionParallelWriter} died before its collective close,
 * from the recovery journals its ranks kept beside each physical file ({@link SionJournalLayout}).
 * The result is the file a close would have written had every task stopped at the fill levels
 * its journal records: META2, META1's tail and, for a set, the mapping behind file 0's META2,
 * encoded by the writer's own {@link ParallelWritePlan#closingWrites}; SIONlib 1.7.6 and
 * {@link SionFile} read it. A task with no record gets one chunk of 0 bytes. In key-value mode a
 * task is cut at the end of its last complete record ({@link KeyValueScanner#completeRecordsEnd}):
 * a chunk-end record may lie inside a record that spans chunks. After a power failure, recover
 * with {@link SionRecoveryMode#FLUSHED_ONLY}: chunk-end records are not forced with their data.
 *
 * <p>Order of writes, each forced to stable storage: members 1..nfiles-1 before file 0, and in
 * each file META2 before META1's tail (the word that marks the file closed). The file is cut
 * behind META2 as a close leaves it; data a task wrote after its last record is not recovered.
 * Files of the set that are already closed (the job died during its close, or an earlier
 * recovery died before finishing) are kept as they are, so recovery can always be run again.
 * The journals are deleted once the set opens with {@link SionFile}.
 *
 * <pre>{@code
 * SionRecoveryReport report = SionRecovery.recover(Path.of("ckpt.sion"));
 * }</pre>
 */
public final class SionRecovery {

    private SionRecovery() {
    }

    /**
     * Recovers the file or set named {@code name} (file 0 of a set) from every valid journal
     * record ({@link SionRecoveryMode#EVERY_RECORD}: after processes died, the machine kept running).
     */
    public static SionRecoveryReport recover(Path name) throws IOException {
        return recover(name, SionRecoveryMode.EVERY_RECORD);
    }

    /**
     * Recovers the file or set named {@code name} (file 0 of a set), trusting the journal records
     * {@code mode} names: after a power failure use {@link SionRecoveryMode#FLUSHED_ONLY}.
     */
    public static SionRecoveryReport recover(Path name, SionRecoveryMode mode) throws IOException {
        return recover(name, mode, FileStorage.OPENER);
    }

    /** {@link #recover(Path, SionRecoveryMode)} of the files {@code opener} opens. */
    public static SionRecoveryReport recover(Path name, SionRecoveryMode mode, StorageOpener opener)
            throws IOException {
        List<Closeable> opened = new ArrayList<>();
        try {
            List<FileUnderRecovery> files = openFiles(opener, name, opened);
            if (files.stream().allMatch(FileUnderRecovery::isClosed)) {
                throw new SionRecoveryRefusedException(name, SionRecoveryRefusedException.Reason.ALREADY_CLOSED,
                        (files.size() == 1 ? "the file is" : "every file of the set is") + " already closed"
                                + " (start_of_varheader = " + files.get(0).meta1().startOfMeta2()
                                + (files.size() == 1 ? "" : " in file 0") + "): there is nothing to recover, open it as it is");
            }
            ParallelWritePlan plan = planOf(files);
            List<RecoveredTask> recovered = replayJournals(files, plan.options(), mode);
            List<ClosingWrites> writes = plan.closingWrites(recovered.stream().map(RecoveredTask::bytesPerChunk)
                    .toArray(long[][]::new));
            for (int fileNumber = files.size() - 1; fileNumber >= 0; fileNumber--) {
                if (files.get(fileNumber).isClosed()) {
                    continue;
                }
                Storage storage = files.get(fileNumber).storage();
                ClosingWrites closing = writes.get(fileNumber);
                storage.truncate(closing.endOfFile());
                closing.writeTo(storage, true);
            }
            Closing.closeAll(opened);
            opened.clear();
            SionFile.open(name, opener).close(); // validates every file of the set before the journals go
            for (FileUnderRecovery file : files) {
                opener.deleteIfExists(SionFileNames.journal(file.path()));
            }
            return new SionRecoveryReport(name, recovered);
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(opened, e);
            throw e;
        }
    }

    /**
     * The header of the recovery journal beside the physical file {@code file}, checked (magic,
     * version, checksum), or empty when there is no journal: what a recovery would start from.
     */
    public static Optional<SionJournalHeader> journalHeader(Path file) throws IOException {
        if (!Files.exists(SionFileNames.journal(file))) {
            return Optional.empty();
        }
        try (SionJournalReader journal = SionJournalReader.open(FileStorage.OPENER, file)) {
            return Optional.of(journal.header());
        }
    }

    /**
     * One physical file of the set: unclosed, with its checked journal, or already closed (by a
     * close or a recovery that died before finishing the set), with its validated metadata.
     *
     * @param head     META1 as the writer put it down at open: everything before the tail
     * @param geometry where its chunks lie
     * @param journal  its journal; null if the file is closed
     * @param closed   its metadata if it is closed; null otherwise
     */
    private record FileUnderRecovery(Path path, Storage storage, Meta1 meta1, ByteBuffer head,
                                     ChunkGeometry geometry, SionJournalReader journal, PhysicalFileMetadata closed) {

        boolean isClosed() {
            return closed != null;
        }
    }

    /**
     * Opens every physical file and the journal of every unclosed one (adding them to
     * {@code opened}); refuses unless each journal belongs to its file and all to the same open.
     */
    private static List<FileUnderRecovery> openFiles(StorageOpener opener, Path name, List<Closeable> opened)
            throws IOException {
        List<FileUnderRecovery> files = new ArrayList<>();
        Meta1FixedPart firstFixed = null;
        SionJournalReader firstJournal = null;
        int fileCount = 1;
        for (int fileNumber = 0; fileNumber < fileCount; fileNumber++) {
            Path path = SionFileNames.physicalFile(name, fileNumber);
            Storage storage = openForRecovery(opener, path, opened);
            Meta1 meta1 = SionMetadataReader.readMeta1OfUnclosedFile(storage, firstFixed, fileNumber);
            if (fileNumber == 0) {
                firstFixed = meta1.fixedPart();
                fileCount = firstFixed.fileCount();
            }
            ByteBuffer head = PositionalIo.readExactly(storage, 0,
                    (int) Meta1Layout.maxChunksOffset(meta1.fixedPart().taskCount()),
                    meta1.fixedPart().endianness().metadataOrder(), "META1", "head");
            if (meta1.startOfMeta2() != 0) {
                PhysicalFileMetadata closed = SionMetadataReader.read(storage);
                files.add(new FileUnderRecovery(path, storage, meta1, head, closed.geometry(), null, closed));
                continue;
            }
            SionJournalReader journal = SionJournalReader.open(opener, path);
            opened.add(journal);
            firstJournal = firstJournal == null ? journal : firstJournal;
            journal.checkBelongsTo(path, meta1, SionJournalLayout.meta1HeadChecksum(head), fileNumber,
                    firstJournal.header().journalId());
            ChunkGeometry geometry = new SionMetadataValidator(path, storage.size()).checkUnclosedChunkLayout(meta1);
            files.add(new FileUnderRecovery(path, storage, meta1, head, geometry, journal, null));
        }
        return files;
    }

    private static Storage openForRecovery(StorageOpener opener, Path file, List<Closeable> opened)
            throws IOException {
        try {
            Storage storage = opener.open(file, OpenMode.READ_WRITE);
            opened.add(storage);
            return storage;
        } catch (NoSuchFileException e) {
            throw new FormatException(file, "no such physical file of the SION set", e);
        }
    }

    /**
     * The plan a parallel writer made for these files, checked byte for byte against every
     * file's META1 head: what it then encodes at close is exactly what that writer would have.
     */
    private static ParallelWritePlan planOf(List<FileUnderRecovery> files) throws IOException {
        long journalId = files.stream().filter(file -> !file.isClosed()).findFirst().orElseThrow().journal().header()
                .journalId();
        FileUnderRecovery first = files.get(0);
        Meta1FixedPart fixed = first.meta1().fixedPart();
        long[] capacities = files.stream().flatMapToLong(file -> Arrays.stream(file.meta1().chunkCapacities()))
                .toArray();
        KeyValueMode keyValueMode = new SionMetadataValidator(first.path(), first.storage().size()).keyValueMode(fixed);
        SionWriteOptions options = SionWriteOptions.defaults().withKeyValueMode(keyValueMode)
                .withUserDataOrder(fixed.endianness().userDataOrder())
                .withMetadataOrder(fixed.endianness().metadataOrder());
        ParallelWritePlan plan = ParallelWritePlan.of(fixed.prefix(), capacities, fixed.fileCount(), fixed.fsBlockSize(),
                options, journalId);
        for (int fileNumber = 0; fileNumber < files.size(); fileNumber++) {
            ByteBuffer stored = files.get(fileNumber).head();
            byte[] planned = plan.assignmentFor(plan.metadataOwner(fileNumber)).meta1Head();
            int differs = stored.mismatch(ByteBuffer.wrap(planned));
            if (differs >= 0) {
                throw new CorruptFileException(files.get(fileNumber).path(), differs, "META1", "head byte " + differs,
                        String.format("%02x (as Quire's parallel writer lays out these capacities)", planned[differs]),
                        String.format("%02x", stored.get(differs)));
            }
        }
        return plan;
    }

    /**
     * Every task's fill levels, in global order (files in order, tasks in file order): from its
     * journal, or from META2 for the tasks of a file that is already closed.
     */
    private static List<RecoveredTask> replayJournals(List<FileUnderRecovery> files, SionWriteOptions options,
                                                      SionRecoveryMode mode) throws IOException {
        List<RecoveredTask> recovered = new ArrayList<>();
        for (int fileNumber = 0; fileNumber < files.size(); fileNumber++) {
            FileUnderRecovery file = files.get(fileNumber);
            long fileSize = file.storage().size();
            for (int localTask = 0; localTask < file.meta1().fixedPart().taskCount(); localTask++) {
                long globalRank = file.meta1().globalRank(localTask);
                if (file.isClosed()) {
                    recovered.add(new RecoveredTask(recovered.size(), globalRank, fileNumber, true,
                            file.closed().meta2().usedBytesPerChunk(localTask), 0, OptionalLong.empty(), 0));
                    continue;
                }
                SionJournalReader.TaskFills fills = file.journal().readTask(localTask, file.geometry(), fileSize,
                        mode);
                long[] bytesPerChunk = fills.bytesPerChunk();
                long journalled = Arrays.stream(bytesPerChunk).sum();
                if (options.keyValueMode() == KeyValueMode.INLINE) {
                    SionTask task = new SionTask(recovered.size(), globalRank, fileNumber, localTask,
                            file.geometry().chunkCapacity(localTask), file.geometry().taskStart(localTask),
                            file.geometry().globalSkip(), bytesPerChunk);
                    long end = KeyValueScanner.completeRecordsEnd(file.path(),
                            new TaskStreamChannel(file.storage(), task), options.metadataOrder());
                    bytesPerChunk = streamPrefix(bytesPerChunk, end);
                }
                recovered.add(new RecoveredTask(recovered.size(), globalRank, fileNumber, false, bytesPerChunk,
                        fills.records(), fills.damagedRecordOffset(), journalled - Arrays.stream(bytesPerChunk).sum()));
            }
        }
        return recovered;
    }

    /**
     * The fill levels of the first {@code length} bytes of a stream whose chunks hold
     * {@code bytesPerChunk}: the chunk it ends in keeps its part, the chunks behind it stay with
     * 0 bytes. Keeping them keeps META2 where the journal's chunks end, so that neither it nor
     * the cut behind it lands on bytes the journal describes: a recovery that dies after cutting
     * the file replays the same journal against the same bytes when it is run again.
     */
    static long[] streamPrefix(long[] bytesPerChunk, long length) {
        int chunk = 0;
        long before = 0;
        while (before + bytesPerChunk[chunk] < length) {
            before += bytesPerChunk[chunk];
            chunk++;
        }
        long[] prefix = new long[bytesPerChunk.length];
        System.arraycopy(bytesPerChunk, 0, prefix, 0, chunk);
        prefix[chunk] = length - before;
        return prefix;
    }
}
