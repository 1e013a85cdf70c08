package org.quire.examples;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Computes pi by the midpoint rule, split over the ranks, using every operation of the
 * communicator once: rank 0 broadcasts the number of intervals (default 10,000,000, or
 * {@code args[0]}), scatters each rank its slice, every rank integrates its slice, the partial sums
 * are reduced to rank 0 and allgathered for display, a token travels the ring by send/receive,
 * rank 0 gathers who computed what, and a barrier separates the report from the work.
 *
 * <pre>quire run -n 4 -cp examples/target/quire-examples.jar org.quire.examples.CollectivesDemo</pre>
 */
public final class CollectivesDemo {

    private static final int TOKEN_TAG = 7;

    private CollectivesDemo() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            int rank = world.rank();
            int size = world.size();
            String[] arguments = job.arguments();

            byte[] intervalsMessage = rank == 0
                    ? longBytes(arguments.length > 0 ? Long.parseLong(arguments[0]) : 10_000_000L) : null;
            long intervals = ByteBuffer.wrap(world.broadcast(intervalsMessage, 0)).getLong();

            byte[][] slices = null;
            if (rank == 0) {
                slices = new byte[size][];
                for (int r = 0; r < size; r++) {
                    slices[r] = ByteBuffer.allocate(16).putLong(intervals * r / size).putLong(intervals * (r + 1) / size)
                            .array();
                }
            }
            ByteBuffer slice = ByteBuffer.wrap(world.scatter(slices, 0));
            long first = slice.getLong();
            long end = slice.getLong();

            double partial = integrate(first, end, intervals);
            double[] pi = world.reduce(new double[] {partial}, ReduceOp.SUM, 0);
            long[] work = world.reduce(new long[] {end - first}, ReduceOp.SUM, 0);
            byte[][] partials = world.allgather(ByteBuffer.allocate(8).putDouble(partial).array());

            int next = (rank + 1) % size;
            int previous = (rank - 1 + size) % size;
            long token = 0;
            if (rank == 0) {
                world.send(longBytes(0), next, TOKEN_TAG);
                token = ByteBuffer.wrap(world.receive(previous, TOKEN_TAG)).getLong();
            } else {
                long received = ByteBuffer.wrap(world.receive(previous, TOKEN_TAG)).getLong();
                world.send(longBytes(received + rank), next, TOKEN_TAG);
            }

            String me = "rank " + rank + " (pid " + ProcessHandle.current().pid() + ") integrated [" + first + ", " + end
                    + ")";
            byte[][] reports = world.gather(me.getBytes(StandardCharsets.UTF_8), 0);
            world.barrier();

            System.out.printf("partial sum %.15f; all partial sums seen by this rank add up to %.15f%n", partial,
                    sum(partials));
            if (rank == 0) {
                for (byte[] report : reports) {
                    System.out.println(new String(report, StandardCharsets.UTF_8));
                }
                System.out.printf("pi = %.15f (error %.3e) from %d intervals on %d ranks; ring token %d = 0+1+...+%d%n",
                        pi[0], Math.abs(pi[0] - Math.PI), work[0], size, token, size - 1);
            }
        }
    }

    /** Midpoint rule for the integral of 4 / (1 + x^2) over [0, 1], intervals [first, end) of n. */
    private static double integrate(long first, long end, long n) {
        double width = 1.0 / n;
        double sum = 0;
        for (long i = first; i < end; i++) {
            double x = (i + 0.5) * width;
            sum += 4.0 / (1.0 + x * x);
        }
        return sum * width;
    }

    private static double sum(byte[][] doubles) {
        double total = 0;
        for (byte[] d : doubles) {
            total += ByteBuffer.wrap(d).getDouble();
        }
        return total;
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }
}
