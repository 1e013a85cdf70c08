package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.quire.format.Collectives;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Restart on any number of ranks, with the data repartitioned rather than whole old tasks handed
 * out: a SION file written by N tasks is read by a job of M ranks, each rank getting its own
 * contiguous range of the <em>concatenation</em> of the old tasks' data, whatever N and M.
 *
 * <p>Contract of the file: every task's stream is a header of {@code headerBytes} bytes (0 for
 * none; a task's step counter, its part of the grid, ...) followed by a whole number of records
 * of {@code recordBytes} bytes (a grid row, a particle). The records of all tasks, in task order
 * (the set's global order), form one sequence; rank r of M reads records
 * {@link RecordRange#balanced RecordRange.balanced(total, r, M)} of it, which may begin in one
 * old task and end in another. Every rank also gets every task's header. A program that splits
 * its data with {@link RecordRange#balanced} and writes its records in order (task r writes
 * part r) thus reads back exactly its own part after a restart on any rank count; with
 * {@code recordBytes} 1 the ranges are plain byte ranges.
 *
 * <p>Opening is collective (as {@link SionParallelReader}): rank 0 reads and checks the metadata
 * and every task's length against the contract (a task that breaks it fails every rank with one
 * {@link FormatException} naming the file, the task and its length), then each rank opens the
 * physical files its range lies in. Reading and closing are local.
 *
 * <pre>{@code
 * try (SionRepartitionedReader in = SionRepartitionedReader.open(checkpoint, world, HEADER, columns * 8)) {
 *     ByteBuffer rows = ByteBuffer.allocate(Math.toIntExact(in.range().count() * columns * 8));
 *     in.read(rows);
 * }
 * }</pre>
 */
public final class SionRepartitionedReader implements Closeable {

    private final Path name;
    private final List<SionTask> tasks;
    private final List<byte[]> headers;
    private final long[] firstRecordOfTask;
    private final int headerBytes;
    private final long recordBytes;
    private final RecordRange range;
    private final Map<Integer, Storage> storagesByFile;

    private SionRepartitionedReader(Path name, Handout handout, long recordBytes, long[] firstRecordOfTask,
                                    RecordRange range, Map<Integer, Storage> storagesByFile) {
        this.name = name;
        this.tasks = handout.tasks().tasks();
        this.headers = handout.headers();
        this.headerBytes = handout.headerBytes();
        this.recordBytes = recordBytes;
        this.firstRecordOfTask = firstRecordOfTask;
        this.range = range;
        this.storagesByFile = storagesByFile;
    }

    /**
     * Opens {@code name} (file 0 of a set) on every rank of {@code collectives}; see the class
     * comment for the contract of the file.
     *
     * @param headerBytes bytes at the start of every task's stream that are not records, at least 0
     * @param recordBytes bytes of one record, at least 1
     */
    public static SionRepartitionedReader open(Path name, Collectives collectives, int headerBytes, long recordBytes)
            throws IOException {
        return open(name, collectives, headerBytes, recordBytes, FileStorage.OPENER);
    }

    /** {@link #open(Path, Collectives, int, long)} through {@code opener}. */
    public static SionRepartitionedReader open(Path name, Collectives collectives, int headerBytes, long recordBytes,
                                               StorageOpener opener) throws IOException {
        if (headerBytes < 0 || recordBytes < 1) {
            throw new IllegalArgumentException("header bytes must be >= 0 and record bytes >= 1, got " + headerBytes
                    + " and " + recordBytes);
        }
        Handout handout = Handout.decode(RootVerdict.decide(collectives, "opening the SION file " + name, () -> {
            try (SionFile sion = SionFile.open(name, opener)) {
                return RootVerdict.sameForAll(handout(name, sion, headerBytes, recordBytes), collectives.size());
            }
        }));
        List<SionTask> tasks = handout.tasks().tasks();
        long[] firstRecordOfTask = new long[tasks.size() + 1];
        for (int t = 0; t < tasks.size(); t++) {
            firstRecordOfTask[t + 1] = firstRecordOfTask[t] + (tasks.get(t).totalBytes() - headerBytes) / recordBytes;
        }
        RecordRange range = RecordRange.balanced(firstRecordOfTask[tasks.size()], collectives.rank(),
                collectives.size());
        List<SionTask> mine = new ArrayList<>();
        for (int t = 0; t < tasks.size(); t++) {
            if (firstRecordOfTask[t] < range.end() && firstRecordOfTask[t + 1] > range.first()) {
                mine.add(tasks.get(t));
            }
        }
        return new SionRepartitionedReader(name, handout, recordBytes, firstRecordOfTask, range,
                SionParallelReader.openPhysicalFiles(name, collectives, mine, opener));
    }

    /** Checks every task against the contract and encodes the tasks and their headers. */
    private static byte[] handout(Path name, SionFile sion, int headerBytes, long recordBytes) throws IOException {
        if (sion.keyValueMode() != KeyValueMode.NONE) {
            // Its streams interleave record headers with the data: they are not header + records.
            throw new UnsupportedFormatException(name, "META1 flag1 key-value mode", Meta1Layout.FLAG1_OFFSET,
                    "mode " + sion.keyValueMode(), "NONE (plain task streams) for a repartitioned read");
        }
        List<byte[]> headers = new ArrayList<>();
        for (SionTask task : sion.tasks()) {
            long length = task.totalBytes();
            if (length < headerBytes || (length - headerBytes) % recordBytes != 0) {
                throw new FormatException(name, "task " + task.index() + " (global rank " + task.globalRank()
                        + ") holds " + length + " bytes, expected a header of " + headerBytes
                        + " bytes followed by a whole number of records of " + recordBytes + " bytes");
            }
            ByteBuffer header = ByteBuffer.allocate(headerBytes);
            sion.openTaskStream(task.index()).readFully(header);
            headers.add(header.array());
        }
        TaskHandout tasks = new TaskHandout(sion.physicalFiles().size(), sion.keyValueMode(),
                sion.physicalFiles().get(0).meta1().fixedPart().endianness(), sion.tasks());
        return new Handout(tasks, headerBytes, headers).encode();
    }

    /** What rank 0 hands every rank: all tasks and all their headers. */
    private record Handout(TaskHandout tasks, int headerBytes, List<byte[]> headers) {

        byte[] encode() {
            byte[] encodedTasks = tasks.encode();
            ByteBuffer out = ByteBuffer.allocate(4 + encodedTasks.length + 4 + headers.size() * headerBytes);
            out.putInt(encodedTasks.length).put(encodedTasks).putInt(headerBytes);
            headers.forEach(out::put);
            return out.array();
        }

        static Handout decode(byte[] encoded) {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            byte[] encodedTasks = new byte[in.getInt()];
            in.get(encodedTasks);
            TaskHandout tasks = TaskHandout.decode(encodedTasks);
            int headerBytes = in.getInt();
            List<byte[]> headers = new ArrayList<>();
            for (int t = 0; t < tasks.tasks().size(); t++) {
                byte[] header = new byte[headerBytes];
                in.get(header);
                headers.add(header);
            }
            return new Handout(tasks, headerBytes, headers);
        }
    }

    /** Tasks that wrote the file. */
    public int oldTaskCount() {
        return tasks.size();
    }

    /** The header of old task {@code task} (its first {@code headerBytes} bytes), on every rank. */
    public byte[] header(int task) {
        return headers.get(task).clone();
    }

    /** Records the old task {@code task} holds. */
    public long recordsOfOldTask(int task) {
        return firstRecordOfTask[task + 1] - firstRecordOfTask[task];
    }

    /** Records of all old tasks together. */
    public long totalRecords() {
        return firstRecordOfTask[tasks.size()];
    }

    public long recordBytes() {
        return recordBytes;
    }

    /** The records this rank reads: {@link RecordRange#balanced} of {@link #totalRecords()}. */
    public RecordRange range() {
        return range;
    }

    /**
     * Reads this rank's records in order into {@code into}, which must have exactly
     * {@code range().count() * recordBytes()} bytes remaining; its position ends at its limit.
     */
    public void read(ByteBuffer into) throws IOException {
        long expected = range.count() * recordBytes;
        if (into.remaining() != expected) {
            throw new IllegalArgumentException("the buffer has " + into.remaining() + " bytes remaining, this rank's "
                    + range.count() + " records take " + expected);
        }
        for (int t = 0; t < tasks.size(); t++) {
            long first = Math.max(range.first(), firstRecordOfTask[t]);
            long end = Math.min(range.end(), firstRecordOfTask[t + 1]);
            if (first >= end) {
                continue;
            }
            SionTask task = tasks.get(t);
            TaskStreamChannel stream = new TaskStreamChannel(storagesByFile.get(task.fileNumber()), task);
            stream.position(headerBytes + (first - firstRecordOfTask[t]) * recordBytes);
            int length = Math.toIntExact((end - first) * recordBytes);
            int read = stream.readFully(into.slice(into.position(), length));
            if (read != length) {
                throw new FormatException(name, "task " + task.index() + " ended after " + read + " of the "
                        + length + " bytes its metadata promised");
            }
            into.position(into.position() + length);
        }
    }

    @Override
    public void close() throws IOException {
        Closing.closeAll(storagesByFile.values());
    }
}
