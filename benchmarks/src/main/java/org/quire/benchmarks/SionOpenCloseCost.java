package org.quire.benchmarks;

import org.quire.format.Collectives;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.local.LocalWorld;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Cost of {@link SionParallelWriter}'s collective open and close against the number of tasks, for
 * {@code benchmarks/sion-bandwidth.sh}:
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.SionOpenCloseCost DIRECTORY REPEATS THREAD_TASKS SIMULATED_TASKS
 * </pre>
 *
 * (task lists comma-separated, e.g. {@code 1,64,1024,16384}). Two kinds of group:
 * <ul>
 *   <li>{@code threads}: an in-JVM world ({@link LocalWorld}: one thread per rank, collectives
 *       over in-memory queues). The real open and close run on every rank, each with its own file
 *       channel, but N threads share the machine's cores, so at large N the times are mostly
 *       the scheduling of N ranks.</li>
 *   <li>{@code simulated}: rank 0 alone, its peers simulated by {@link SimulatedPeersCollectives};
 *       the times are rank 0's own work for N tasks (planning, encoding, metadata writes): the
 *       critical path of a real job apart from its engine's message latency.</li>
 * </ul>
 * Every rank writes {@value #BYTES_PER_TASK} zero bytes between open and close, without fsync, so
 * the figures are the collectives, the planning and the metadata writes, not the device. Times are
 * the slowest rank's, each step started from a barrier. Each rank's collectives are wrapped in
 * {@link CountingCollectives}; rank 0 reports the payload bytes it gathered from and sent to the
 * other ranks during each step. Each written file is read back with {@link SionFile} and must
 * hold N tasks of {@value #BYTES_PER_TASK} bytes. One line per group kind, task count and repeat,
 * after one unreported warm-up round per task count:
 *
 * <pre>
 * result world=threads tasks=1024 open_us=... close_us=... open_gathered=... open_sent=...
 *        close_gathered=... close_sent=... open_gathers=... close_gathers=... metadata_bytes=... file_bytes=...
 * </pre>
 *
 * {@code metadata_bytes} is the analytic size of META1 + META2 for n tasks of one chunk each
 * (docs/sionlib.md sections 1.1 and 1.4: 1088 + 16n, and 8n + 8n per chunk row).
 */
public final class SionOpenCloseCost {

    private static final int BYTES_PER_TASK = 64;
    private static final Duration WORLD_TIMEOUT = Duration.ofMinutes(10);

    private enum World {
        THREADS("threads"), SIMULATED("simulated");

        final String label;

        World(String label) {
            this.label = label;
        }
    }

    /** What one rank measured; the counts are meaningful on rank 0 only. */
    private record RankCost(long openNanos, long closeNanos, long openGathered, long openSent, int openGathers,
                            long closeGathered, long closeSent, int closeGathers) {
    }

    private SionOpenCloseCost() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: SionOpenCloseCost DIRECTORY REPEATS THREAD_TASKS SIMULATED_TASKS");
        }
        Path file = Path.of(args[0]).resolve("open-close.sion");
        int repeats = Integer.parseInt(args[1]);
        for (World world : World.values()) {
            String list = args[world == World.THREADS ? 2 : 3];
            for (int tasks : Arrays.stream(list.split(",")).filter(s -> !s.isBlank()).mapToInt(Integer::parseInt)
                    .toArray()) {
                measure(file, world, tasks); // warm-up: class loading and JIT, not reported
                for (int repeat = 0; repeat < repeats; repeat++) {
                    System.out.println(measure(file, world, tasks));
                }
            }
        }
    }

    private static String measure(Path file, World world, int tasks) throws IOException {
        List<RankCost> costs = world == World.THREADS
                ? LocalWorld.run(tasks, WORLD_TIMEOUT, communicator -> openWriteClose(file, communicator))
                : List.of(openWriteClose(file, new SimulatedPeersCollectives(tasks)));
        long fileBytes = Files.size(file);
        checkWritten(file, tasks);
        Files.delete(file);
        RankCost root = costs.get(0);
        long slowestOpen = costs.stream().mapToLong(RankCost::openNanos).max().orElseThrow();
        long slowestClose = costs.stream().mapToLong(RankCost::closeNanos).max().orElseThrow();
        long metadataBytes = 1088 + 16L * tasks + 8L * tasks + 8L * tasks;
        return String.format("result world=%s tasks=%d open_us=%.1f close_us=%.1f open_gathered=%d open_sent=%d"
                        + " close_gathered=%d close_sent=%d open_gathers=%d close_gathers=%d metadata_bytes=%d"
                        + " file_bytes=%d",
                world.label, tasks, slowestOpen / 1e3, slowestClose / 1e3, root.openGathered(), root.openSent(),
                root.closeGathered(), root.closeSent(), root.openGathers(), root.closeGathers(), metadataBytes,
                fileBytes);
    }

    private static RankCost openWriteClose(Path file, Collectives group) throws IOException {
        CountingCollectives counting = new CountingCollectives(group);
        group.barrier();
        long start = System.nanoTime();
        SionParallelWriter out = SionParallelWriter.open(file, counting, BYTES_PER_TASK, 1,
                SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults().withFsyncOnClose(false));
        long openNanos = System.nanoTime() - start;
        long openGathered = counting.bytesGatheredAtRoot();
        long openSent = counting.bytesSentByRoot();
        int openGathers = counting.gathers();
        out.write(ByteBuffer.allocate(BYTES_PER_TASK));
        group.barrier();
        counting.reset();
        start = System.nanoTime();
        out.close();
        long closeNanos = System.nanoTime() - start;
        return new RankCost(openNanos, closeNanos, openGathered, openSent, openGathers,
                counting.bytesGatheredAtRoot(), counting.bytesSentByRoot(), counting.gathers());
    }

    /** The benchmark measured nothing unless the file holds every task's bytes. */
    private static void checkWritten(Path file, int tasks) throws IOException {
        try (SionFile sion = SionFile.open(file)) {
            List<SionTask> written = sion.tasks();
            if (written.size() != tasks || written.stream().anyMatch(t -> t.totalBytes() != BYTES_PER_TASK)) {
                throw new IOException(file + " holds " + written.size() + " tasks, not " + tasks + " of "
                        + BYTES_PER_TASK + " bytes each");
            }
        }
    }
}
