package org.quire.examples;

import org.quire.format.sion.SionParallelReader;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A checkpoint of every rank's state in one SION container, written and read back by real
 * processes: each rank writes the deterministic stream of {@link CheckpointStream} with
 * {@link SionParallelWriter} (several chunks, records larger than a chunk), and a later job,
 * on the same or another number of ranks, reads it back with {@link SionParallelReader} and
 * checks every byte.
 *
 * <pre>
 * quire run -n 4 -cp examples/target/quire-examples.jar org.quire.examples.SionCheckpoint write ckpt.sion 2 40
 * quire run -n 3 -cp examples/target/quire-examples.jar org.quire.examples.SionCheckpoint read-mapped ckpt.sion 40
 * </pre>
 *
 * Modes:
 * <ul>
 *   <li>{@code write NAME FILES RECORDS [FLUSH_EVERY PAUSE_MS]}: each rank writes its first
 *       RECORDS records into NAME (FILES physical files); with FLUSH_EVERY &gt; 0 it calls
 *       {@link SionParallelWriter#flush()} after every FLUSH_EVERY records and prints
 *       {@code flushed RANK BYTES} once the flush returned, and sleeps PAUSE_MS after each record
 *       (to give a crash test time to kill it);</li>
 *   <li>{@code read-own NAME RECORDS}: rank r reads task r ({@code openOwnTask});</li>
 *   <li>{@code read-mapped NAME RECORDS}: the ranks share the tasks in contiguous blocks
 *       ({@code openMapped}), on any number of ranks.</li>
 * </ul>
 * Readers check that every task holds exactly the first RECORDS records of the stream of the rank
 * that wrote it, or with RECORDS = {@code prefix} (a file closed by {@code quire sion recover}),
 * any prefix of it; rank 0 prints the verdict and the job exits 1 on any mismatch.
 */
public final class SionCheckpoint {

    /** Expected record count meaning "any prefix of the stream". */
    private static final int ANY_PREFIX = -1;

    private SionCheckpoint() {
    }

    public static void main(String[] args) throws IOException {
        int status;
        try (Job job = Quire.init(args)) {
            String[] arguments = job.arguments();
            if (arguments.length < 3 || arguments[0].equals("write") && arguments.length < 4) {
                throw new IllegalArgumentException("usage: write NAME FILES RECORDS [FLUSH_EVERY PAUSE_MS]"
                        + " | read-own NAME RECORDS | read-mapped NAME RECORDS");
            }
            Path name = Path.of(arguments[1]);
            status = switch (arguments[0]) {
                case "write" -> write(job.world(), name, Integer.parseInt(arguments[2]), Integer.parseInt(arguments[3]),
                        arguments.length > 4 ? Integer.parseInt(arguments[4]) : 0,
                        arguments.length > 5 ? Long.parseLong(arguments[5]) : 0);
                case "read-own" -> read(job.world(), name, expectedRecords(arguments[2]), false);
                case "read-mapped" -> read(job.world(), name, expectedRecords(arguments[2]), true);
                default -> throw new IllegalArgumentException("unknown mode " + arguments[0]);
            };
        }
        // Returning (not System.exit) on success lets Quire leave the world, delivering every message.
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Records every task must hold, or {@link #ANY_PREFIX}. */
    private static int expectedRecords(String argument) {
        return argument.equals("prefix") ? ANY_PREFIX : Integer.parseInt(argument);
    }

    private static int write(Communicator world, Path name, int files, int records, int flushEvery, long pauseMillis)
            throws IOException {
        int rank = world.rank();
        long position = 0;
        try (SionParallelWriter writer = SionParallelWriter.open(name, world, CheckpointStream.CHUNK_SIZE, files,
                CheckpointStream.FS_BLOCK_SIZE, SionWriteOptions.defaults())) {
            System.out.println("pid " + rank + " " + ProcessHandle.current().pid());
            for (int record = 0; record < records; record++) {
                int length = CheckpointStream.recordLength(rank, record);
                writer.write(ByteBuffer.wrap(CheckpointStream.bytes(rank, position, length)));
                position += length;
                if (flushEvery > 0 && (record + 1) % flushEvery == 0) {
                    writer.flush();
                    System.out.println("flushed " + rank + " " + position);
                }
                if (pauseMillis > 0) {
                    sleep(pauseMillis);
                }
            }
        }
        System.out.println("wrote " + rank + " " + position);
        return 0;
    }

    private static int read(Communicator world, Path name, int records, boolean mapped) throws IOException {
        long tasks = 0;
        long bytes = 0;
        StringBuilder problems = new StringBuilder();
        try (SionParallelReader reader = mapped ? SionParallelReader.openMapped(name, world)
                : SionParallelReader.openOwnTask(name, world)) {
            for (SionTask task : reader.tasks()) {
                int writer = Math.toIntExact(task.globalRank());
                byte[] stream = reader.readFully(task);
                long expected = records == ANY_PREFIX ? stream.length : CheckpointStream.length(writer, records);
                long mismatch = CheckpointStream.firstMismatch(writer, stream);
                if (stream.length != expected || mismatch >= 0) {
                    problems.append("task ").append(task.index()).append(": ").append(stream.length)
                            .append(" bytes, expected ").append(expected).append(", first wrong byte ")
                            .append(mismatch).append("; ");
                }
                tasks++;
                bytes += stream.length;
            }
        }
        String mine = tasks + " " + bytes + " " + problems;
        byte[][] reports = world.gather(mine.getBytes(StandardCharsets.UTF_8), 0);
        int status = 0;
        if (world.rank() == 0) {
            long allTasks = 0;
            long allBytes = 0;
            StringBuilder allProblems = new StringBuilder();
            for (byte[] report : reports) {
                String[] parts = new String(report, StandardCharsets.UTF_8).split(" ", 3);
                allTasks += Long.parseLong(parts[0]);
                allBytes += Long.parseLong(parts[1]);
                allProblems.append(parts[2]);
            }
            String how = mapped ? "mapped" : "own task";
            if (allProblems.length() == 0) {
                System.out.println("verified " + allTasks + " tasks, " + allBytes + " bytes on " + world.size()
                        + " ranks (" + how + "): every byte as written" + (records == ANY_PREFIX ? " (prefixes)" : ""));
            } else {
                System.out.println("MISMATCH reading " + name + " on " + world.size() + " ranks (" + how + "): "
                        + allProblems);
                status = 1;
            }
        }
        byte[] verdict = world.broadcast(new byte[] {(byte) status}, 0);
        return verdict[0];
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pausing between records", e);
        }
    }
}
