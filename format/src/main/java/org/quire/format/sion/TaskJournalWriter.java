package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Appends one task's records to the recovery journal of its physical file (layout in
 * {@link SionJournalLayout}), with no communication: each task writes only its own blocks. A
 * record is appended whenever the task leaves a chunk (not forced) and at every
 * {@link #appendDurably} (marked forced).
 */
final class TaskJournalWriter implements Closeable, TaskChunkWriter.FinishedChunks {

    private final Storage storage;
    private final int taskCount;
    private final int localTask;
    private final long journalId;
    private long nextSequence = 1;

    private TaskJournalWriter(Storage storage, int taskCount, int localTask, long journalId) {
        this.storage = storage;
        this.taskCount = taskCount;
        this.localTask = localTask;
        this.journalId = journalId;
    }

    /**
     * Creates (or empties) the journal {@code file} with {@code header}, for the file's local
     * task 0, and forces it to stable storage.
     */
    static TaskJournalWriter create(StorageOpener opener, Path file, SionJournalHeader header) throws IOException {
        Storage storage = opener.open(file, OpenMode.CREATE_OR_OPEN);
        try {
            storage.truncate(0);
            storage.write(SionJournalLayout.encodeHeader(header), 0);
            storage.force(true);
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(List.of(storage), e);
            throw e;
        }
        return new TaskJournalWriter(storage, header.taskCount(), 0, header.journalId());
    }

    /** Opens the journal {@code file} that local task 0 created, for {@code localTask}. */
    static TaskJournalWriter openExisting(StorageOpener opener, Path file, int taskCount, int localTask,
                                          long journalId) throws IOException {
        return new TaskJournalWriter(opener.open(file, OpenMode.READ_WRITE), taskCount, localTask, journalId);
    }

    @Override
    public void chunkFinished(long chunk, long bytes) throws IOException {
        append(chunk, bytes, false); // the data is not forced: after a power failure only forced records count
    }

    /**
     * Appends a record marked forced and forces the journal to stable storage; the caller has
     * already forced the data the record describes, so the record never claims bytes that are
     * not there, even after a power failure.
     */
    void appendDurably(long chunk, long bytes) throws IOException {
        append(chunk, bytes, true);
        storage.force(false);
    }

    private void append(long chunk, long bytes, boolean forced) throws IOException {
        long sequence = nextSequence;
        SionJournalRecord record = new SionJournalRecord(sequence, localTask, chunk, bytes, forced);
        storage.write(SionJournalLayout.encodeRecord(journalId, record),
                SionJournalLayout.recordOffset(taskCount, localTask, sequence));
        nextSequence++;
    }

    @Override
    public void close() throws IOException {
        storage.close();
    }
}
