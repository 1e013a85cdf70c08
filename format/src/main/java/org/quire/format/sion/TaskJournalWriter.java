package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends one task's records to the recovery journal of its physical file (layout in
 * {@link SionJournalLayout}), with no communication: each task writes only its own blocks. A
 * record is appended whenever the task leaves a chunk (not forced) and at every
 * {@link #appendDurably} (marked forced).
 */
final class TaskJournalWriter implements Closeable, TaskChunkWriter.FinishedChunks {

    private final FileChannel channel;
    private final int taskCount;
    private final int localTask;
    private final long journalId;
    private long nextSequence = 1;

    private TaskJournalWriter(FileChannel channel, int taskCount, int localTask, long journalId) {
        this.channel = channel;
        this.taskCount = taskCount;
        this.localTask = localTask;
        this.journalId = journalId;
    }

    /** Creates (or empties) the journal {@code file} with {@code header}, for the file's local task 0. */
    static TaskJournalWriter create(Path file, SionJournalHeader header) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            PositionalIo.writeFully(channel, SionJournalLayout.encodeHeader(header), 0);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new TaskJournalWriter(channel, header.taskCount(), 0, header.journalId());
    }

    /** Opens the journal {@code file} that local task 0 created, for {@code localTask}. */
    static TaskJournalWriter openExisting(Path file, int taskCount, int localTask, long journalId) throws IOException {
        return new TaskJournalWriter(FileChannel.open(file, StandardOpenOption.WRITE), taskCount, localTask, journalId);
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
        channel.force(false);
    }

    private void append(long chunk, long bytes, boolean forced) throws IOException {
        long sequence = nextSequence;
        SionJournalRecord record = new SionJournalRecord(sequence, localTask, chunk, bytes, forced);
        PositionalIo.writeFully(channel, SionJournalLayout.encodeRecord(journalId, record),
                SionJournalLayout.recordOffset(taskCount, localTask, sequence));
        nextSequence++;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
