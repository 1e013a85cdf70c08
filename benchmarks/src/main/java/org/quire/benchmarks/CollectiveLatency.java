package org.quire.benchmarks;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Start-up time and latency of the communicator's collectives on a live world, for
 * {@code benchmarks/runtime-latency.sh}. Run it like any worker ({@code quire run}, {@code mpjrun},
 * {@code srun}); rank 0 prints one line per measurement:
 *
 * <pre>
 * ready_epoch_ms=...                       (latest time any rank was past its first barrier)
 * op=barrier ranks=4 iterations=2000 median_us=... p90_us=...
 * </pre>
 *
 * Each iteration's latency is the slowest rank's time for it (what the job waits for); the
 * median and 90th percentile are over iterations, after {@code WARMUP} untimed ones of every
 * operation.
 * {@code args[0]}: timed iterations per operation (default 2000).
 */
public final class CollectiveLatency {

    private static final int WARMUP = 300;

    private interface Operation {
        void run(Communicator world);
    }

    private CollectiveLatency() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            world.barrier();
            long readyEpochMillis = System.currentTimeMillis();
            long[] latestReady = world.reduce(new long[] {readyEpochMillis}, ReduceOp.MAX, 0);
            if (world.rank() == 0) {
                System.out.println("ready_epoch_ms=" + latestReady[0]);
            }
            int iterations = job.arguments().length > 0 ? Integer.parseInt(job.arguments()[0]) : 2000;
            byte[] kilobyte = new byte[1024];
            byte[] eightBytes = new byte[8];
            long[] oneLong = {world.rank()};
            Map<String, Operation> operations = new LinkedHashMap<>();
            operations.put("barrier", Communicator::barrier);
            operations.put("allreduce_8B", w -> w.allreduce(oneLong, ReduceOp.SUM));
            operations.put("bcast_1KiB", w -> w.broadcast(w.rank() == 0 ? kilobyte : null, 0));
            operations.put("gather_8B", w -> w.gather(eightBytes, 0));
            operations.put("allgather_8B", w -> w.allgather(eightBytes));
            // All operations warm up before any is timed: the engine's code paths they share (and
            // the JIT compiling them) would otherwise be charged to whichever is timed first.
            for (Operation operation : operations.values()) {
                for (int i = 0; i < WARMUP; i++) {
                    operation.run(world);
                }
            }
            operations.forEach((name, operation) -> measure(world, name, iterations, operation));
        }
    }

    private static void measure(Communicator world, String name, int iterations, Operation operation) {
        world.barrier();
        long[] nanos = new long[iterations];
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            operation.run(world);
            nanos[i] = System.nanoTime() - start;
        }
        ByteBuffer mine = ByteBuffer.allocate(iterations * Long.BYTES);
        mine.asLongBuffer().put(nanos);
        byte[][] all = world.gather(mine.array(), 0);
        if (world.rank() != 0) {
            return;
        }
        long[] slowest = new long[iterations];
        for (byte[] rankNanos : all) {
            for (int i = 0; i < iterations; i++) {
                slowest[i] = Math.max(slowest[i], ByteBuffer.wrap(rankNanos).getLong(i * Long.BYTES));
            }
        }
        Arrays.sort(slowest);
        System.out.printf("op=%s ranks=%d iterations=%d median_us=%.1f p90_us=%.1f%n", name, world.size(), iterations,
                slowest[iterations / 2] / 1000.0, slowest[iterations * 9 / 10] / 1000.0);
    }
}
