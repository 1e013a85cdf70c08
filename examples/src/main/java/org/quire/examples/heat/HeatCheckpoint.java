package org.quire.examples.heat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Optional;

import org.quire.format.sion.RecordRange;
import org.quire.format.sion.SionCheckpointSeries;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionRepartitionedReader;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.Communicator;

/**
 * {@link HeatDiffusion}'s checkpoints: the series {@code DIR/heat-<step>.sion}, one SION file
 * per checkpoint with one task per rank. A task's stream is a header followed by the rank's rows
 * of the grid, each row n little-endian doubles, so that the records of all tasks in task order
 * are the whole grid row by row ({@link SionRepartitionedReader}'s contract):
 *
 * <pre>
 * offset  size  field
 *      0     4  magic "HEAT" (0x48454154, big-endian as all header fields)
 *      4     4  version 1
 *      8     8  step
 *     16     4  n (the grid is n x n)
 *     20     4  first row of this task
 *     24     4  rows of this task
 *     28     4  reserved, 0
 *     32        rows * n * 8 bytes of temperatures
 * </pre>
 */
final class HeatCheckpoint {

    static final String SERIES = "heat";
    static final int HEADER_BYTES = 32;
    private static final int MAGIC = 0x48454154;
    private static final int VERSION = 1;

    /** What a checkpoint must hold beyond a readable SION file (see {@link #problem}). */
    static final SionCheckpointSeries.Validator COMPLETE = HeatCheckpoint::problem;

    private HeatCheckpoint() {
    }

    /** A checkpoint's header fields. */
    record Header(long step, int n, int firstRow, int rows) {

        ByteBuffer encode() {
            return ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(VERSION).putLong(step).putInt(n)
                    .putInt(firstRow).putInt(rows).putInt(0).flip();
        }

        /** The header in {@code bytes}, or empty when its magic or version is not this program's. */
        static Optional<Header> decode(byte[] bytes) {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            if (in.getInt() != MAGIC || in.getInt() != VERSION) {
                return Optional.empty();
            }
            return Optional.of(new Header(in.getLong(), in.getInt(), in.getInt(), in.getInt()));
        }
    }

    static SionCheckpointSeries series(Path directory) {
        return new SionCheckpointSeries(directory, SERIES);
    }

    /** Writes every rank's block at {@code step} into {@code file}. Collective. */
    static void write(Communicator world, Path file, long step, RowBlock block) throws IOException {
        RecordRange rows = block.rows();
        ByteBuffer header = new Header(step, block.n(), Math.toIntExact(rows.first()), Math.toIntExact(rows.count()))
                .encode();
        ByteBuffer data = block.interiorBytes();
        try (SionParallelWriter writer = SionParallelWriter.open(file, world, header.remaining() + data.remaining(),
                1, SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE,
                SionWriteOptions.defaults().withUserDataOrder(ByteOrder.LITTLE_ENDIAN))) {
            writer.write(header);
            writer.write(data);
        }
    }

    /** The state of a checkpoint, repartitioned over this job's ranks. Collective. */
    record Restored(long step, RowBlock block) {
    }

    /**
     * Reads {@code file} (a checkpoint {@link #COMPLETE} accepted) on every rank: each gets its
     * balanced block of the grid's rows, whatever rank count wrote it.
     */
    static Restored read(Communicator world, Path file) throws IOException {
        // A row is n doubles and n is in the headers: a first open with 1-byte records reads them.
        byte[] firstHeader;
        try (SionRepartitionedReader in = SionRepartitionedReader.open(file, world, HEADER_BYTES, 1)) {
            firstHeader = in.header(0);
        }
        Header header = Header.decode(firstHeader).orElseThrow();
        try (SionRepartitionedReader in = SionRepartitionedReader.open(file, world, HEADER_BYTES,
                (long) header.n() * Double.BYTES)) {
            ByteBuffer rows = ByteBuffer.allocate(Math.toIntExact(in.range().count() * in.recordBytes()));
            in.read(rows);
            return new Restored(header.step(), RowBlock.of(header.n(), in.range(), rows.flip()));
        }
    }

    /**
     * Why {@code file} is not a complete checkpoint of step {@code step} of this program: every
     * task a header of that step and the same grid, tasks holding consecutive rows that make up the whole grid, each task
     * exactly its header and its rows long. Empty when it is complete.
     */
    static Optional<String> problem(SionFile file, long step) throws IOException {
        Header first = null;
        long nextRow = 0;
        for (SionTask task : file.tasks()) {
            if (task.totalBytes() < HEADER_BYTES) {
                return Optional.of("task " + task.index() + " holds " + task.totalBytes()
                        + " bytes, less than a header");
            }
            ByteBuffer bytes = ByteBuffer.allocate(HEADER_BYTES);
            file.openTaskStream(task.index()).readFully(bytes);
            Optional<Header> decoded = Header.decode(bytes.array());
            if (decoded.isEmpty()) {
                return Optional.of("task " + task.index() + " does not start with a heat checkpoint header");
            }
            Header header = decoded.get();
            if (header.step() != step) {
                return Optional.of("task " + task.index() + " holds step " + header.step() + ", its name says " + step);
            }
            if (header.n() < HeatOptions.MIN_GRID || header.n() > HeatOptions.MAX_GRID || header.rows() < 1) {
                // Every rank of a run holds at least one row of a grid --grid accepts.
                return Optional.of("task " + task.index() + " holds grid " + header.n() + " and a row count of "
                        + header.rows() + "; expected a grid of " + HeatOptions.MIN_GRID + ".." + HeatOptions.MAX_GRID
                        + " and at least 1 row");
            }
            first = first == null ? header : first;
            if (header.n() != first.n() || header.firstRow() != nextRow) {
                return Optional.of("task " + task.index() + " holds grid " + header.n() + ", rows from "
                        + header.firstRow() + "; expected grid " + first.n() + ", rows from " + nextRow);
            }
            long expected = HEADER_BYTES + (long) header.rows() * header.n() * Double.BYTES;
            if (task.totalBytes() != expected) {
                return Optional.of("task " + task.index() + " holds " + task.totalBytes()
                        + " bytes, its header promises " + expected);
            }
            nextRow += header.rows();
        }
        if (first == null || nextRow != first.n()) {
            return Optional.of("its tasks hold " + nextRow + " rows, not a whole grid");
        }
        return Optional.empty();
    }
}
