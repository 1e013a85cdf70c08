package org.quire.benchmarks;

import org.quire.format.sion.SionParallelReader;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.runtime.local.LocalWorld;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;

/**
 * Where a page-cache read of a SION task stream spends its time, in one JVM (docs/benchmarks.md,
 * "Page-cache reads"). Three commands, run one after the other by a shell so that the page cache
 * can be dropped, filled and inspected in between:
 *
 * <pre>
 * SionReadProbe write DIRECTORY TASKS MIB_PER_TASK CHUNK_MIB   # probe.sion (TASKS tasks) and probe.fpp
 * SionReadProbe cold  DIRECTORY READ_KIB                       # drop the cache; every task reads its own
 *                                                              # stream at once (one thread each), as the
 *                                                              # ranks of sion-bandwidth.sh do; probe.fpp once
 * SionReadProbe warm  DIRECTORY READ_KIB REPEATS               # times task 0 from the page cache
 * </pre>
 *
 * {@code warm} reads task 0's bytes three ways per repeat, interleaved so that load hits each
 * alike: through {@link TaskStreamChannel} (what a SION reader does), through a plain
 * {@link FileChannel} with positional reads of the same sizes at the same file offsets (the same
 * pages of the cache without any SION code), and {@code probe.fpp} (a plain file of the same size
 * read sequentially, as file-per-process), each first in a third of the repeats. It prints each
 * repeat's wall and thread CPU time (user + system: on a loaded machine the part that is the
 * read's own, not the wait for a core) and the medians. If the first two
 * agree, a SION reader costs nothing of its own and any gap to the third is the page cache's
 * state; the folio sizes of that state are shown by {@code benchmarks/page-cache-folios.py}.
 */
public final class SionReadProbe {

    private static final String CONTAINER = "probe.sion";
    private static final String PLAIN = "probe.fpp";
    private static final int WRITE_SIZE = 1 << 20;

    private SionReadProbe() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: SionReadProbe write|cold|warm DIRECTORY ...");
        }
        Path directory = Path.of(args[1]);
        switch (args[0]) {
            case "write" -> write(directory, Integer.parseInt(args[2]), Long.parseLong(args[3]) << 20,
                    Long.parseLong(args[4]) << 20);
            case "cold" -> cold(directory, Integer.parseInt(args[2]) << 10);
            case "warm" -> warm(directory, Integer.parseInt(args[2]) << 10, Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("unknown command " + args[0] + ": write, cold or warm");
        }
    }

    private static void write(Path directory, int tasks, long bytesPerTask, long chunkSize) throws IOException {
        Path container = directory.resolve(CONTAINER);
        LocalWorld.run(tasks, Duration.ofMinutes(10), world -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(WRITE_SIZE);
            try (SionParallelWriter out = SionParallelWriter.open(container, world, chunkSize, 1,
                    SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults())) {
                for (long written = 0; written < bytesPerTask; written += WRITE_SIZE) {
                    out.write(buffer.clear());
                }
            }
            return null;
        });
        ByteBuffer buffer = ByteBuffer.allocateDirect(WRITE_SIZE);
        try (FileChannel out = FileChannel.open(directory.resolve(PLAIN), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < bytesPerTask; written += WRITE_SIZE) {
                buffer.clear();
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
        }
        PageCache.flush();
    }

    private static void cold(Path directory, int readSize) throws IOException {
        if (!PageCache.drop()) {
            throw new IOException("cannot drop the page cache (needs root)");
        }
        Path container = directory.resolve(CONTAINER);
        int tasks;
        try (SionParallelReader all = SionParallelReader.openMapped(container, LocalWorld.self())) {
            tasks = all.tasks().size();
        }
        LocalWorld.run(tasks, Duration.ofMinutes(10), world -> {
            try (SionParallelReader in = SionParallelReader.openOwnTask(container, world);
                 TaskStreamChannel stream = in.openTaskStream(in.tasks().get(0))) {
                return drain(stream, ByteBuffer.allocateDirect(readSize));
            }
        });
        try (FileChannel in = FileChannel.open(directory.resolve(PLAIN), StandardOpenOption.READ)) {
            drain(in, ByteBuffer.allocateDirect(readSize));
        }
    }

    private static void warm(Path directory, int readSize, int repeats) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(readSize);
        String[] ways = {"sion stream", "same offsets by FileChannel", "plain file"};
        long[][] wall = new long[ways.length][repeats];
        long[][] cpu = new long[ways.length][repeats];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (SionParallelReader in = SionParallelReader.openMapped(directory.resolve(CONTAINER), LocalWorld.self());
             FileChannel raw = FileChannel.open(directory.resolve(CONTAINER), StandardOpenOption.READ);
             FileChannel plain = FileChannel.open(directory.resolve(PLAIN), StandardOpenOption.READ)) {
            SionTask task = in.tasks().get(0);
            System.out.println("task 0: " + task.totalBytes() + " bytes in " + task.chunkCount() + " chunks, first at "
                    + task.chunkOffset(0) + ", second at " + (task.chunkCount() > 1 ? task.chunkOffset(1) : -1));
            for (int r = 0; r < repeats; r++) {
                StringBuilder line = new StringBuilder("repeat " + r + ":");
                for (int k = 0; k < ways.length; k++) {
                    int way = (k + r) % ways.length; // each way goes first, second and third equally often
                    long startWall = System.nanoTime();
                    long startCpu = threads.getCurrentThreadCpuTime();
                    long read = switch (way) {
                        case 0 -> {
                            try (TaskStreamChannel stream = in.openTaskStream(task)) {
                                yield drain(stream, buffer);
                            }
                        }
                        case 1 -> readChunksRaw(raw, task, buffer);
                        default -> drain(plain.position(0), buffer);
                    };
                    cpu[way][r] = threads.getCurrentThreadCpuTime() - startCpu;
                    wall[way][r] = System.nanoTime() - startWall;
                    require(read, task.totalBytes());
                    line.append(String.format(" %s %.1f ms (cpu %.1f)", ways[way], wall[way][r] / 1e6,
                            cpu[way][r] / 1e6));
                }
                System.out.println(line);
            }
        }
        for (int way = 0; way < ways.length; way++) {
            System.out.printf("median %s: %.1f ms, cpu %.1f ms%n", ways[way], median(wall[way]) / 1e6,
                    median(cpu[way]) / 1e6);
        }
    }

    /** Task {@code task}'s bytes by positional reads of at most the buffer's size, never across a chunk's end. */
    private static long readChunksRaw(FileChannel raw, SionTask task, ByteBuffer buffer) throws IOException {
        long total = 0;
        for (int chunk = 0; chunk < task.chunkCount(); chunk++) {
            long at = task.chunkOffset(chunk);
            long end = at + task.bytesInChunk(chunk);
            while (at < end) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
                int n = raw.read(buffer, at);
                if (n < 0) {
                    return total;
                }
                at += n;
                total += n;
            }
        }
        return total;
    }

    private static long drain(ReadableByteChannel in, ByteBuffer buffer) throws IOException {
        long total = 0;
        int n;
        while ((n = in.read(buffer.clear())) >= 0) {
            total += n;
        }
        return total;
    }

    private static void require(long read, long expected) throws IOException {
        if (read != expected) {
            throw new IOException("read " + read + " bytes, expected " + expected);
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
