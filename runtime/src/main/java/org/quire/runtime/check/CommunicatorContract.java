package org.quire.runtime.check;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.util.Arrays;

/**
 * The behaviour every {@link Communicator} engine must show, checked on a live world: each
 * collective with every rank as root, payloads whose length and content depend on sender and
 * receiver (so a misrouted or truncated message is caught), a payload beyond MPJ's eager limit,
 * reductions in all three operations, and tag matching of point-to-point messages that arrive out
 * of the order they are received in.
 *
 * <p>Run it on a cluster as {@code quire run -n N org.quire.runtime.check.CommunicatorContract}
 * (or under {@code mpjrun}/{@code srun}); every rank prints one line and exits 0 when all checks
 * pass, and throws {@link ContractViolation} naming the operation otherwise. The engine tests
 * run exactly this.
 */
public final class CommunicatorContract {

    private static final int LARGE_PAYLOAD = 1 << 20;

    private final Communicator world;
    private final int rank;
    private final int size;
    private int checks;

    private CommunicatorContract(Communicator world) {
        this.world = world;
        this.rank = world.rank();
        this.size = world.size();
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            int checks = verify(world);
            System.out.println("communicator contract holds: rank " + world.rank() + " of " + world.size() + ", "
                    + checks + " checks");
        }
    }

    /** Runs every check on this rank (collectively with the others); returns how many passed. */
    public static int verify(Communicator world) {
        CommunicatorContract contract = new CommunicatorContract(world);
        contract.identity();
        contract.barriers();
        contract.broadcasts();
        contract.gathers();
        contract.scatters();
        contract.allgathers();
        contract.reductions();
        contract.messages();
        world.barrier();
        return contract.checks;
    }

    private void identity() {
        expect("size()", size >= 1, "at least 1", Integer.toString(size));
        expect("rank()", rank >= 0 && rank < size, "0.." + (size - 1), Integer.toString(rank));
    }

    private void barriers() {
        for (int i = 0; i < 3; i++) {
            world.barrier();
        }
        checks++;
    }

    private void broadcasts() {
        for (int root = 0; root < size; root++) {
            byte[] sent = rank == root ? pattern(root, 1000 + root, root * 31 + 5) : null;
            expectBytes("broadcast from " + root, pattern(root, 1000 + root, root * 31 + 5), world.broadcast(sent, root));
            expectBytes("empty broadcast from " + root, new byte[0], world.broadcast(rank == root ? new byte[0] : null, root));
        }
        byte[] large = rank == 0 ? pattern(0, 7, LARGE_PAYLOAD) : null;
        expectBytes("1 MiB broadcast", pattern(0, 7, LARGE_PAYLOAD), world.broadcast(large, 0));
    }

    private void gathers() {
        for (int root = 0; root < size; root++) {
            byte[][] gathered = world.gather(pattern(rank, root, rank * 7 + 1), root);
            if (rank == root) {
                expect("gather to " + root + " count", gathered != null && gathered.length == size, size + " arrays",
                        gathered == null ? "null" : gathered.length + " arrays");
                for (int r = 0; r < size; r++) {
                    expectBytes("gather to " + root + " from " + r, pattern(r, root, r * 7 + 1), gathered[r]);
                }
            } else {
                expect("gather to " + root + " on a non-root", gathered == null, "null", "an array");
            }
        }
    }

    private void scatters() {
        for (int root = 0; root < size; root++) {
            byte[][] parts = null;
            if (rank == root) {
                parts = new byte[size][];
                for (int r = 0; r < size; r++) {
                    parts[r] = pattern(root, r, 3 * r + root);
                }
            }
            expectBytes("scatter from " + root, pattern(root, rank, 3 * rank + root), world.scatter(parts, root));
        }
    }

    private void allgathers() {
        byte[][] all = world.allgather(pattern(rank, 99, 11 * rank + 2));
        expect("allgather count", all.length == size, size + " arrays", all.length + " arrays");
        for (int r = 0; r < size; r++) {
            expectBytes("allgather from " + r, pattern(r, 99, 11 * r + 2), all[r]);
        }
    }

    private void reductions() {
        long[] longs = {rank, -3L * rank, (long) rank * rank, Long.MAX_VALUE - rank};
        double[] doubles = {rank + 0.5, -1.25 * rank, Math.pow(2, -rank)};
        for (int root = 0; root < size; root++) {
            for (ReduceOp op : ReduceOp.values()) {
                long[] reducedLongs = world.reduce(longs, op, root);
                double[] reducedDoubles = world.reduce(doubles, op, root);
                if (rank == root) {
                    expect("reduce(long, " + op + ") to " + root, Arrays.equals(expectedLongs(op), reducedLongs),
                            Arrays.toString(expectedLongs(op)), Arrays.toString(reducedLongs));
                    expect("reduce(double, " + op + ") to " + root, Arrays.equals(expectedDoubles(op), reducedDoubles),
                            Arrays.toString(expectedDoubles(op)), Arrays.toString(reducedDoubles));
                } else {
                    expect("reduce to " + root + " on a non-root", reducedLongs == null && reducedDoubles == null,
                            "null", "an array");
                }
            }
        }
    }

    private long[] expectedLongs(ReduceOp op) {
        long[] result = new long[4];
        for (int r = 0; r < size; r++) {
            long[] values = {r, -3L * r, (long) r * r, Long.MAX_VALUE - r};
            for (int i = 0; i < values.length; i++) {
                result[i] = r == 0 ? values[i] : op.apply(result[i], values[i]);
            }
        }
        return result;
    }

    private double[] expectedDoubles(ReduceOp op) {
        double[] result = new double[3];
        for (int r = 0; r < size; r++) {
            // Exactly representable values, so the sum is the same in any order.
            double[] values = {r + 0.5, -1.25 * r, Math.pow(2, -r)};
            for (int i = 0; i < values.length; i++) {
                result[i] = r == 0 ? values[i] : op.apply(result[i], values[i]);
            }
        }
        return result;
    }

    private void messages() {
        int next = (rank + 1) % size;
        int previous = (rank - 1 + size) % size;
        // Two tags, three messages: the receiver asks for them in another order than they were sent.
        world.send(pattern(rank, 1, 10), next, 1);
        world.send(pattern(rank, 2, 20), next, 2);
        world.send(pattern(rank, 3, 30), next, 1);
        expectBytes("receive tag 2 from " + previous, pattern(previous, 2, 20), world.receive(previous, 2));
        expectBytes("first receive tag 1 from " + previous, pattern(previous, 1, 10), world.receive(previous, 1));
        expectBytes("second receive tag 1 from " + previous, pattern(previous, 3, 30), world.receive(previous, 1));
    }

    /** Bytes that depend on who sent them to whom, and a length that differs per pair. */
    private static byte[] pattern(int from, int to, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (from * 131 + to * 17 + i * 7);
        }
        return bytes;
    }

    private void expectBytes(String operation, byte[] expected, byte[] found) {
        boolean same = Arrays.equals(expected, found);
        expect(operation, same, describe(expected), describe(found));
    }

    private static String describe(byte[] bytes) {
        return bytes == null ? "null" : bytes.length + " bytes (hash " + Arrays.hashCode(bytes) + ")";
    }

    private void expect(String operation, boolean holds, String expected, String found) {
        if (!holds) {
            throw new ContractViolation(rank, operation, expected, found);
        }
        checks++;
    }
}
