package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.quire.format.Collectives;
import org.quire.format.storage.NewFiles;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * One rank's handle on a SION file (or set of {@code fileCount} files) written by all ranks of a
 * {@link Collectives} group at once, laid out exactly as SIONlib's {@code sion_paropen_mpi} /
 * {@code sion_parclose_mpi} lay it out (reference sections 2.1-2.5, 3.1): globalrank = rank,
 * parallel filenumber 0-based, contiguous rank blocks per file, no trailer on a single file,
 * the mapping behind file 0's META2 for a set.
 *
 * <p>Open is collective: rank 0 gathers every rank's requested chunk size, computes capacities and
 * start pointers and hands each rank its place; the first rank of each file writes that file's
 * META1. Afterwards each rank writes through its own storage with no communication, moving to
 * its next chunk at {@code start + k * globalskip} when one is full. Close is collective and
 * gathers every rank's chunk fill levels in a single gather (SIONlib does one per chunk index);
 * each file's first rank then writes META2 and META1's tail.
 *
 * <p>With {@link SionWriteOptions#withCollectiveWrites(int) collective writes} (SIONlib's {@code collective}
 * mode), open lays the file out as SIONlib does in that mode ({@link CollectorGroups}) and every write is
 * collective: each rank takes its record's place in its own chunk and its group's collector writes it there
 * ({@link CollectorGather}). Close is the same in both modes.
 *
 * <p>Unless {@link SionWriteOptions#journal()} is off, every rank also records in a recovery
 * journal beside its physical file ({@link SionJournalLayout}) the fill level of each chunk it
 * leaves and, at {@link #flush()}, of its current chunk; close deletes the journals. After a
 * crash, {@link SionRecovery} closes the files from the journals instead.
 *
 * <pre>{@code
 * try (SionParallelWriter out = SionParallelWriter.open(Path.of("ckpt.sion"), collectives, 1 << 20, 1,
 *         SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults())) {
 *     out.write(ByteBuffer.wrap(myState));
 * }   // collective close
 * }</pre>
 */
public final class SionParallelWriter implements Closeable {

    /**
     * Pass as fsBlockSize for the default alignment: the block size of the file store holding the file, but
     * at least {@link #SMALLEST_DEFAULT_FS_BLOCK_SIZE}. It is stored as META1's fsblksize, as SIONlib stores
     * the block size it aligned to, so SIONlib reads the file as any other.
     */
    public static final int FS_BLOCK_SIZE_FROM_FILE_STORE = -1;
    /**
     * 64 KiB: the smallest default alignment of the data area and the chunks. With 4 KiB, every 64 KiB write
     * of a task straddles two 64 KiB ranges of the page cache, which costs Linux's large-folio page cache about
     * a third of the rate of small writes (docs/benchmarks.md, "the start of the data area").
     */
    public static final int SMALLEST_DEFAULT_FS_BLOCK_SIZE = 64 * 1024;
    /** SIONlib's replacement for a block size below 1 or above 32 MiB. */
    static final int FALLBACK_FS_BLOCK_SIZE = 2 * 1024 * 1024;
    private static final long LARGEST_FS_BLOCK_SIZE = 32L * 1024 * 1024;

    private final Collectives collectives;
    private final Path name;
    private final SionWriteOptions options;
    private final RankAssignment assignment;
    private final Storage storage;
    /** This rank's appender to its file's recovery journal; null when the journal is off. */
    private final TaskJournalWriter journal;
    private final TaskChunkWriter task;
    private final int fileCount;
    private final ParallelWritePlan plan;
    private boolean closed;
    /** Collective writes so far, and the number of the first that failed (0: none), the same on every rank. */
    private long collectiveWrites;
    private long failedCollectiveWrite;
    /** How that write failed on this rank (null: none failed); every later operation is refused with it. */
    private Throwable collectiveWriteFailure;

    private SionParallelWriter(Collectives collectives, Path name, SionWriteOptions options, RankAssignment assignment,
                               Storage storage, TaskJournalWriter journal, int fileCount, ParallelWritePlan plan) {
        this.collectives = collectives;
        this.name = name;
        this.options = options;
        this.assignment = assignment;
        this.storage = storage;
        this.journal = journal;
        this.fileCount = fileCount;
        this.plan = plan;
        this.task = new TaskChunkWriter(storage, collectives.rank(), assignment.taskStart(), assignment.chunkCapacity(),
                assignment.globalSkip(), options.keyValueMode(), options.metadataOrder(),
                journal == null ? TaskChunkWriter.FinishedChunks.NONE : journal);
    }

    /**
     * Collectively creates the file set {@code name} ({@code name}, {@code name.000001}, ...).
     *
     * @param requestedChunkSize this rank's chunk size; its capacity is the size aligned to the block size (with
     *                           collective writes, as {@link CollectorGroups} computes it)
     * @param fileCount          physical files, 1..ranks; must be equal on all ranks
     * @param fsBlockSize        alignment, or {@link #FS_BLOCK_SIZE_FROM_FILE_STORE} (at least 64 KiB); rank 0's
     *                           value is used
     * @param options            rank 0's key-value mode and byte orders go to the file; must be equal on all ranks
     */
    public static SionParallelWriter open(Path name, Collectives collectives, long requestedChunkSize, int fileCount,
                                          int fsBlockSize, SionWriteOptions options) throws IOException {
        int rank = collectives.rank();
        byte[] request = ByteBuffer.allocate(8 + 4 + 4 + 4).putLong(requestedChunkSize).putInt(fileCount)
                .putInt(options.keyValueMode().code()).putInt(options.tasksPerCollector()).array();
        byte[][] requests = collectives.gather(request, 0);
        ParallelWritePlan plan = null;
        byte[][] assignments = null;
        if (rank == 0) {
            try {
                plan = planFromRequests(name, requests, fileCount, fsBlockSize, options);
                assignments = new byte[requests.length][];
                for (int r = 0; r < requests.length; r++) {
                    assignments[r] = RootVerdict.payload(plan.assignmentFor(r).encode());
                }
            } catch (IOException | RuntimeException e) {
                assignments = RootVerdict.failureForAll(e, requests.length);
                collectives.scatter(assignments, 0);
                throw e;
            }
        }
        RankAssignment assignment = RankAssignment.decode(
                RootVerdict.unwrap(collectives.scatter(assignments, 0), "planning the SION file " + name));

        Path physicalFile = SionFileNames.physicalFile(name, assignment.fileNumber());
        Path journalFile = SionFileNames.journal(physicalFile);
        Storage storage = null;
        TaskJournalWriter journal = null;
        Throwable failure = null;
        if (assignment.ownsFileMetadata()) {
            try {
                storage = NewFiles.createLocked(options.storage(), physicalFile, options.createMode());
                storage.write(ByteBuffer.wrap(assignment.meta1Head()), 0);
                if (options.journal()) {
                    // Recovery needs every file's META1 and journal header. A rank's flush forces only its
                    // own file and journal, so each file's are forced here, before any rank can flush.
                    storage.force(true);
                    journal = TaskJournalWriter.create(options.storage(), journalFile,
                            journalHeader(assignment, fileCount));
                } else {
                    // A journal left by an earlier crashed open of this name must not be applied to this file.
                    options.storage().deleteIfExists(journalFile);
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }
        // Every file and journal exists and is truncated before other ranks open it; when a file could not be
        // created, the ranks sharing it fail with the creator's failure, not with their own follow-on one.
        try {
            CollectiveOutcome.agree(collectives, failure, "creating the SION file " + name);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(storage, journal, e);
            throw e;
        }
        if (!assignment.ownsFileMetadata()) {
            try {
                storage = options.storage().open(physicalFile, OpenMode.READ_WRITE);
                if (options.journal()) {
                    journal = TaskJournalWriter.openExisting(options.storage(), journalFile,
                            assignment.fileTaskCount(), assignment.localRank(), assignment.journalId());
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }
        try {
            CollectiveOutcome.agree(collectives, failure, "creating the SION file " + name);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(storage, journal, e);
            throw e;
        }
        return new SionParallelWriter(collectives, name, options, assignment, storage, journal, fileCount, plan);
    }

    private static SionJournalHeader journalHeader(RankAssignment assignment, int fileCount) {
        return new SionJournalHeader(assignment.fileNumber(), fileCount, assignment.fileTaskCount(),
                assignment.journalId(), SionJournalLayout.meta1HeadChecksum(ByteBuffer.wrap(assignment.meta1Head())));
    }

    private static void closeAfterFailure(Storage storage, TaskJournalWriter journal, Throwable cause) {
        Closing.closeAllAfter(opened(storage, journal), cause);
    }

    /** The ones of {@code resources} that are open (not null). */
    private static List<Closeable> opened(Closeable... resources) {
        return Arrays.stream(resources).filter(Objects::nonNull).toList();
    }

    private static ParallelWritePlan planFromRequests(Path name, byte[][] requests, int fileCount, int fsBlockSize,
                                                      SionWriteOptions options) throws IOException {
        long[] requestedChunkSizes = new long[requests.length];
        for (int r = 0; r < requests.length; r++) {
            ByteBuffer request = ByteBuffer.wrap(requests[r]);
            requestedChunkSizes[r] = request.getLong();
            int theirFileCount = request.getInt();
            int theirKeyValueMode = request.getInt();
            int theirTasksPerCollector = request.getInt();
            if (theirFileCount != fileCount || theirKeyValueMode != options.keyValueMode().code()
                    || theirTasksPerCollector != options.tasksPerCollector()) {
                throw new IllegalArgumentException("rank " + r + " opened with fileCount " + theirFileCount
                        + ", key-value mode " + theirKeyValueMode + " and " + theirTasksPerCollector
                        + " tasks per collector, rank 0 with " + fileCount + ", " + options.keyValueMode().code()
                        + " and " + options.tasksPerCollector() + "; they must be equal on all ranks");
            }
        }
        if (options.collective() && options.journal()) {
            // A collector writes its senders' data, so a sender's flush could not vouch for its journal record.
            throw new IllegalArgumentException("collective writes to " + name + " need the recovery journal off"
                    + " (SionWriteOptions.withJournal(false)): a rank's journal cannot vouch for data its collector"
                    + " writes");
        }
        if (options.collective() && options.keyValueMode() != KeyValueMode.NONE) {
            throw new IllegalArgumentException("collective writes to " + name + " are plain writes; key-value mode "
                    + options.keyValueMode() + " is not supported with them (nor by SIONlib's sion_coll_fwrite)");
        }
        int blockSize = fsBlockSize == FS_BLOCK_SIZE_FROM_FILE_STORE ? defaultBlockSize(name) : fsBlockSize;
        return ParallelWritePlan.of(name.toString(), requestedChunkSizes, fileCount, blockSize, options,
                new SecureRandom().nextLong());
    }

    /** The default alignment for {@code name}: see {@link #FS_BLOCK_SIZE_FROM_FILE_STORE}. */
    static int defaultBlockSize(Path name) throws IOException {
        return Math.max(fileStoreBlockSize(name), SMALLEST_DEFAULT_FS_BLOCK_SIZE);
    }

    /** The block size of the file store of {@code name}'s directory, with SIONlib's fallback. */
    static int fileStoreBlockSize(Path name) throws IOException {
        Path directory = name.toAbsolutePath().getParent();
        long blockSize;
        try {
            blockSize = Files.getFileStore(directory).getBlockSize();
        } catch (UnsupportedOperationException e) {
            blockSize = -1;
        }
        return blockSize < 1 || blockSize > LARGEST_FS_BLOCK_SIZE ? FALLBACK_FS_BLOCK_SIZE : (int) blockSize;
    }

    /**
     * Appends one record to this rank's stream (see {@link TaskChunkWriter} for chunk boundaries). With
     * {@link SionWriteOptions#withCollectiveWrites(int) collective writes}, this is SIONlib's {@code sion_coll_fwrite}:
     * every rank must call it, a record must fit in one chunk (it starts the next chunk when it does not fit the
     * rest of this one), and the rank's collector writes it; a failure on any rank throws on every rank. After
     * such a failure the container is incomplete: this, {@link #ensureFreeSpace(long)} and {@link #flush()} throw
     * {@link SionIncompleteContainerException} at once on every rank, and close writes no metadata.
     */
    public void write(ByteBuffer data) throws IOException {
        ensureWritable("cannot write");
        if (assignment.collector() < 0) {
            task.write(data);
        } else {
            writeThroughCollector(data);
        }
    }

    public void write(byte[] data) throws IOException {
        write(ByteBuffer.wrap(data));
    }

    /**
     * Each rank takes its record's place in its own chunk and sends place and record to its collector, which
     * writes each one at its place with one positional write per rank.
     */
    private void writeThroughCollector(ByteBuffer data) throws IOException {
        Throwable failure = null;
        byte[] piece = new byte[0];
        try {
            int length = data.remaining();
            long offset = task.reserve(length);
            piece = ByteBuffer.allocate(8 + length).putLong(offset).put(data).array();
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        byte[][] pieces = CollectorGather.toCollector(collectives, piece, assignment.collector(),
                assignment.collectors());
        if (pieces != null) {
            try {
                for (byte[] received : pieces) {
                    if (received.length > 8) {
                        storage.write(ByteBuffer.wrap(received, 8, received.length - 8),
                                ByteBuffer.wrap(received).getLong());
                    }
                }
            } catch (IOException | RuntimeException e) {
                failure = firstOf(failure, e);
            }
        }
        collectiveWrites++;
        try {
            CollectiveOutcome.agree(collectives, failure, "writing collectively to the SION file " + name);
        } catch (IOException | RuntimeException e) {
            // Every rank gets here: the reservations counted bytes the collectors may not have written.
            if (failedCollectiveWrite == 0) {
                failedCollectiveWrite = collectiveWrites;
                collectiveWriteFailure = e;
            }
            throw e;
        }
    }

    /** Appends a key-value record (file opened with {@link KeyValueMode#INLINE}). */
    public void writeKeyValue(long key, ByteBuffer data) throws IOException {
        ensureWritable("cannot write a key-value record");
        task.writeKeyValue(key, data);
    }

    /**
     * SIONlib's {@code sion_ensure_free_space}: when {@code bytes} would not fit the rest of this rank's
     * current chunk, the next writes start in its next chunk, so that writes of {@code bytes} in all
     * (a key-value record counts its 16-byte header) end up whole in one chunk, as SIONlib programs
     * reading one record per {@code sion_fread} need. More than {@link #chunkCapacity()} is refused.
     */
    public void ensureFreeSpace(long bytes) throws IOException {
        ensureWritable("cannot ensure free space");
        task.ensureFreeSpace(bytes);
    }

    /**
     * Makes everything this rank wrote so far durable and recoverable, without communication:
     * forces this rank's data to stable storage, then appends the fill level of its current
     * chunk to the recovery journal and forces that. Whatever happens to the job afterwards,
     * {@link SionRecovery} restores at least these bytes. With the journal off, only forces the data.
     */
    public void flush() throws IOException {
        ensureWritable("cannot flush");
        storage.force(false);
        if (journal != null) {
            journal.appendDurably(task.currentChunk(), task.currentChunkBytes());
        }
    }

    /** Physical file this rank writes to. */
    public Path physicalFile() {
        return SionFileNames.physicalFile(name, assignment.fileNumber());
    }

    public int fileNumber() {
        return assignment.fileNumber();
    }

    public int localRank() {
        return assignment.localRank();
    }

    public long chunkCapacity() {
        return assignment.chunkCapacity();
    }

    public int fsBlockSize() {
        return assignment.fsBlockSize();
    }

    /**
     * Collective close: optional fsync of this rank's data, one gather of all chunk fill levels
     * to rank 0, META2 + META1 tail (+ mapping) written by each file's first rank, and a final
     * agreement so that close returns on every rank only when every file is complete. After a failed
     * collective write no metadata is written and close fails on every rank: the fill levels would count
     * bytes the collectors did not write.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        Throwable failure = null;
        try {
            if (options.fsyncOnClose()) {
                storage.force(true);
            }
        } catch (IOException e) {
            failure = e;
        }
        byte[][] fillsByRank = collectives.gather(encodeLongs(task.bytesPerChunk()), 0);
        ClosingWrites mine = null;
        byte[][] partsForOwners = null;
        if (collectives.rank() == 0) {
            partsForOwners = new byte[fillsByRank.length][0];
            try {
                List<ClosingWrites> perFile = plan.closingWrites(decodeLongs(fillsByRank));
                mine = perFile.get(0);
                for (int file = 0; file < perFile.size(); file++) {
                    partsForOwners[plan.metadataOwner(file)] = perFile.get(file).encode();
                }
            } catch (RuntimeException e) {
                failure = firstOf(failure, e);
                mine = null;
                partsForOwners = new byte[fillsByRank.length][0];
            }
        }
        if (fileCount > 1) {
            byte[] part = collectives.scatter(partsForOwners, 0);
            if (part.length > 0 && collectives.rank() != 0) {
                mine = ClosingWrites.decode(part);
            }
        }
        if (failedCollectiveWrite > 0) {
            failure = firstOf(failure, new SionIncompleteContainerException(name, "close wrote no metadata",
                    failedCollectiveWrite, collectiveWriteFailure));
        } else if (mine != null) {
            try {
                mine.writeTo(storage, options.fsyncOnClose());
            } catch (IOException e) {
                failure = firstOf(failure, e);
            }
        }
        try {
            Closing.closeAll(opened(storage, journal));
        } catch (IOException e) {
            failure = firstOf(failure, e);
        }
        CollectiveOutcome.agree(collectives, failure, "closing the SION file " + name);
        // Only now is every file of the set closed; until then a crash still needs every journal.
        // A journal someone already removed is no failure: the agreed outcome is that the set is closed.
        if (journal != null && assignment.ownsFileMetadata()) {
            options.storage().deleteIfExists(SionFileNames.journal(physicalFile()));
        }
    }

    /** The failure close reports: the first one met, each later one suppressed in it. */
    private static Throwable firstOf(Throwable first, Throwable later) {
        if (first == null) {
            return later;
        }
        first.addSuppressed(later);
        return first;
    }

    private static byte[] encodeLongs(long[] values) {
        ByteBuffer out = ByteBuffer.allocate(8 * values.length);
        out.asLongBuffer().put(values);
        return out.array();
    }

    private static long[][] decodeLongs(byte[][] encoded) {
        long[][] values = new long[encoded.length][];
        for (int r = 0; r < encoded.length; r++) {
            values[r] = new long[encoded[r].length / 8];
            ByteBuffer.wrap(encoded[r]).asLongBuffer().get(values[r]);
        }
        return values;
    }

    /**
     * Refuses to go on after close, or after a failed collective write: every rank knows of that failure (its
     * outcome was agreed on), so each refuses on its own and none waits in a collective step for the others.
     */
    private void ensureWritable(String refused) throws SionIncompleteContainerException {
        if (closed) {
            throw new IllegalStateException("the SION writer is closed");
        }
        if (failedCollectiveWrite > 0) {
            throw new SionIncompleteContainerException(name, refused, failedCollectiveWrite, collectiveWriteFailure);
        }
    }
}
