package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;

/**
 * Closes a SION file or set whose {@link SionParallelWriter} died before its collective close,
 * from the recovery journals its ranks kept beside each physical file ({@link SionJournalLayout}).
 * The result is the file a close would have written had every task stopped at the fill levels
 * its journal records: META2, META1's tail and, for a set, the mapping behind file 0's META2,
 * encoded by the writer's own {@link ParallelWritePlan#closingWrites}; SIONlib 1.7.6 and
 * {@link SionFile} read it. A task with no record gets one chunk of 0 bytes.
 *
 * <p>Order of writes, each forced to stable storage: members 1..nfiles-1 before file 0, and in
 * each file META2 before META1's tail (the word that marks the file closed). The file is cut
 * behind META2 as a close leaves it; data a task wrote after its last record is not recovered.
 * The journals are deleted once the set opens with {@link SionFile}. Running recovery again after
 * it was interrupted is safe as long as file 0 was not yet closed.
 *
 * <pre>{@code
 * SionRecoveryReport report = SionRecovery.recover(Path.of("ckpt.sion"));
 * }</pre>
 */
public final class SionRecovery {

    private SionRecovery() {
    }

    /** Recovers the file or set named {@code name} (file 0 of a set). */
    public static SionRecoveryReport recover(Path name) throws IOException {
        List<FileChannel> channels = new ArrayList<>();
        List<SionJournalReader> journals = new ArrayList<>();
        try {
            List<Meta1> meta1s = new ArrayList<>();
            FileChannel first = openForRecovery(name, channels);
            Meta1 firstMeta1 = SionMetadataReader.readMeta1OfUnclosedFile(name, first, null, 0);
            if (firstMeta1.startOfMeta2() != 0) {
                throw new SionRecoveryRefusedException(name, SionRecoveryRefusedException.Reason.ALREADY_CLOSED,
                        "the file is already closed (start_of_varheader = " + firstMeta1.startOfMeta2()
                                + "): there is nothing to recover, open it as it is");
            }
            Meta1FixedPart firstFixed = firstMeta1.fixedPart();
            meta1s.add(firstMeta1);
            for (int fileNumber = 1; fileNumber < firstFixed.fileCount(); fileNumber++) {
                Path member = SionFileNames.physicalFile(name, fileNumber);
                meta1s.add(SionMetadataReader.readMeta1OfUnclosedFile(member, openForRecovery(member, channels),
                        firstFixed, fileNumber));
            }

            List<ByteBuffer> heads = new ArrayList<>();
            List<ChunkGeometry> geometries = new ArrayList<>();
            for (int fileNumber = 0; fileNumber < meta1s.size(); fileNumber++) {
                Path file = SionFileNames.physicalFile(name, fileNumber);
                Meta1 meta1 = meta1s.get(fileNumber);
                SionJournalReader journal = SionJournalReader.open(file);
                journals.add(journal);
                heads.add(meta1Head(file, channels.get(fileNumber), meta1));
                journal.checkBelongsTo(file, meta1, SionJournalLayout.meta1HeadChecksum(heads.get(fileNumber)),
                        fileNumber, journals.get(0).header().journalId());
                geometries.add(new SionMetadataValidator(file, channels.get(fileNumber).size())
                        .checkUnclosedChunkLayout(meta1));
            }
            KeyValueMode keyValueMode = new SionMetadataValidator(name, channels.get(0).size()).keyValueMode(firstFixed);
            ParallelWritePlan plan = planOf(name, meta1s, heads, keyValueMode, journals.get(0).header().journalId());

            List<RecoveredTask> recovered = new ArrayList<>();
            List<long[]> fillsByRank = new ArrayList<>();
            for (int fileNumber = 0; fileNumber < meta1s.size(); fileNumber++) {
                Meta1 meta1 = meta1s.get(fileNumber);
                long fileSize = channels.get(fileNumber).size();
                for (int localTask = 0; localTask < meta1.fixedPart().taskCount(); localTask++) {
                    SionJournalReader.TaskFills fills = journals.get(fileNumber)
                            .readTask(localTask, geometries.get(fileNumber), fileSize);
                    fillsByRank.add(fills.bytesPerChunk());
                    recovered.add(new RecoveredTask(recovered.size(), meta1.globalRank(localTask), fileNumber,
                            fills.bytesPerChunk(), fills.records(), fills.damagedRecordOffset()));
                }
            }
            checkMeta2Fits(name, meta1s, recovered);

            List<ClosingWrites> writes = plan.closingWrites(fillsByRank.toArray(long[][]::new));
            for (int fileNumber = writes.size() - 1; fileNumber >= 0; fileNumber--) {
                FileChannel channel = channels.get(fileNumber);
                ClosingWrites closing = writes.get(fileNumber);
                channel.truncate(closing.endOfFile());
                closing.writeTo(channel, true);
            }
            FileChannels.closeAll(channels);
            channels.clear();
            SionFile.open(name).close(); // validates every file of the set before the journals go
            FileChannels.closeAll(journals);
            journals.clear();
            for (int fileNumber = 0; fileNumber < meta1s.size(); fileNumber++) {
                Files.delete(SionFileNames.journal(SionFileNames.physicalFile(name, fileNumber)));
            }
            return new SionRecoveryReport(name, recovered);
        } catch (IOException | RuntimeException e) {
            FileChannels.closeAllAfter(channels, e);
            FileChannels.closeAllAfter(journals, e);
            throw e;
        }
    }

    private static FileChannel openForRecovery(Path file, List<FileChannel> opened) throws IOException {
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            opened.add(channel);
            return channel;
        } catch (NoSuchFileException e) {
            throw new FormatException(file, "no such physical file of the SION set", e);
        }
    }

    /** META1 as the writer put it down at open: everything before the tail. */
    private static ByteBuffer meta1Head(Path file, FileChannel channel, Meta1 meta1) throws IOException {
        long headSize = Meta1Layout.maxChunksOffset(meta1.fixedPart().taskCount());
        return PositionalIo.readExactly(channel, file, 0, (int) headSize, meta1.fixedPart().endianness().metadataOrder(),
                "META1", "head");
    }

    /**
     * The plan a parallel writer made for these files, checked byte for byte against every
     * file's META1 head: what it then encodes at close is exactly what that writer would have.
     */
    private static ParallelWritePlan planOf(Path name, List<Meta1> meta1s, List<ByteBuffer> heads,
                                            KeyValueMode keyValueMode, long journalId) throws IOException {
        Meta1FixedPart fixed = meta1s.get(0).fixedPart();
        List<Long> capacities = new ArrayList<>();
        for (Meta1 meta1 : meta1s) {
            for (long capacity : meta1.chunkCapacities()) {
                capacities.add(capacity);
            }
        }
        EndiannessWord endianness = fixed.endianness();
        SionWriteOptions options = SionWriteOptions.defaults()
                .withKeyValueMode(keyValueMode)
                .withUserDataOrder(endianness.userDataOrder()).withMetadataOrder(endianness.metadataOrder());
        ParallelWritePlan plan = ParallelWritePlan.of(fixed.prefix(), capacities.stream().mapToLong(Long::longValue)
                .toArray(), fixed.fileCount(), fixed.fsBlockSize(), options, journalId);
        for (int fileNumber = 0; fileNumber < meta1s.size(); fileNumber++) {
            Path file = SionFileNames.physicalFile(name, fileNumber);
            ByteBuffer stored = heads.get(fileNumber);
            byte[] planned = plan.assignmentFor(plan.metadataOwner(fileNumber)).meta1Head();
            int differs = stored.mismatch(ByteBuffer.wrap(planned));
            if (differs >= 0) {
                throw new CorruptFileException(file, differs, "META1", "head byte " + differs,
                        String.format("%02x (as Quire's parallel writer lays out these capacities)", planned[differs]),
                        String.format("%02x", stored.get(differs)));
            }
        }
        return plan;
    }

    /** META2 is encoded in one buffer; with maxchunks from a journal it must fit one. */
    private static void checkMeta2Fits(Path name, List<Meta1> meta1s, List<RecoveredTask> recovered)
            throws UnsupportedFormatException {
        for (int fileNumber = 0; fileNumber < meta1s.size(); fileNumber++) {
            int file = fileNumber;
            long maxChunks = recovered.stream().filter(task -> task.fileNumber() == file)
                    .mapToLong(RecoveredTask::chunkCount).max().orElse(1);
            long size = Meta2Layout.size(meta1s.get(fileNumber).fixedPart().taskCount(), maxChunks);
            if (size > Integer.MAX_VALUE - 8) {
                throw new UnsupportedFormatException(SionFileNames.physicalFile(name, fileNumber), "META2 of "
                        + maxChunks + " chunks would take " + size + " bytes, more than one buffer holds (2 GiB)");
            }
        }
    }
}
