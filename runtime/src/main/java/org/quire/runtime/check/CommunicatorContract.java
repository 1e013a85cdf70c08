package org.quire.runtime.check;

import org.quire.runtime.CommunicationException;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.PendingReceive;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * The behaviour every {@link Communicator} engine must show, checked on a live world: each
 * collective with every rank as root, payloads whose length and content depend on sender and
 * receiver (so a misrouted or truncated message is caught), a payload beyond MPJ's eager limit,
 * reductions and allreductions in all three operations, a non-commutative user allreduce,
 * tag matching of point-to-point messages that arrive out of the order they are received in,
 * typed and direct-buffer messages, a halo exchange with {@code sendrecv}, receives started with
 * {@code receiveLater} that complete out of order, and splits (several colors, tied keys, an
 * undefined color, a nested split, parent and child traffic with the same tags at once).
 * Every result is compared with what this rank computes on its own.
 *
 * <p>Run it on a cluster as {@code quire run -n N org.quire.runtime.check.CommunicatorContract}
 * (or under {@code mpjrun}/{@code srun}); every rank prints one line and exits 0 when all checks
 * pass, and throws {@link ContractViolation} naming the operation otherwise. The engine tests
 * run exactly this.
 */
public final class CommunicatorContract {

    private static final int LARGE_PAYLOAD = 1 << 20;
    /** Doubles in one typed message beyond MPJ's 128 KiB eager limit. */
    private static final int LARGE_DOUBLES = 40_000;
    /** Values per rank in an allreduce beyond any engine's small-vector path. */
    private static final int MANY_VALUES = 10_000;
    private static final Duration ARRIVAL_TIMEOUT = Duration.ofSeconds(60);

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
        contract.allreductions();
        contract.messages();
        contract.typedMessages();
        contract.directBuffers();
        contract.haloExchange();
        contract.laterReceives();
        contract.splits();
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
        long[] longs = longsOf(rank);
        double[] doubles = doublesOf(rank);
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

    private void allreductions() {
        long[] longs = longsOf(rank);
        double[] doubles = doublesOf(rank);
        for (ReduceOp op : ReduceOp.values()) {
            long[] reducedLongs = world.allreduce(longs, op);
            expect("allreduce(long, " + op + ")", Arrays.equals(expectedLongs(op), reducedLongs),
                    Arrays.toString(expectedLongs(op)), Arrays.toString(reducedLongs));
            double[] reducedDoubles = world.allreduce(doubles, op);
            expect("allreduce(double, " + op + ")", Arrays.equals(expectedDoubles(op), reducedDoubles),
                    Arrays.toString(expectedDoubles(op)), Arrays.toString(reducedDoubles));
        }
        // Vectors long enough for engines to take another path than for a few values.
        long[] manyLongs = IntStream.range(0, MANY_VALUES).mapToLong(i -> (long) i * (rank + 1)).toArray();
        long[] summedLongs = world.allreduce(manyLongs, ReduceOp.SUM);
        long rankFactors = (long) size * (size + 1) / 2;
        long[] expectedSums = IntStream.range(0, MANY_VALUES).mapToLong(i -> i * rankFactors).toArray();
        expect("allreduce(long, SUM) of " + MANY_VALUES + " values", Arrays.equals(expectedSums, summedLongs),
                "sums i * " + rankFactors, "hash " + Arrays.hashCode(summedLongs));
        double[] manyDoubles = IntStream.range(0, MANY_VALUES).mapToDouble(i -> i - rank * 0.5).toArray();
        double[] smallest = world.allreduce(manyDoubles, ReduceOp.MIN);
        double lowest = (size - 1) * 0.5;
        expectDoubles("allreduce(double, MIN) of " + MANY_VALUES + " values",
                IntStream.range(0, MANY_VALUES).mapToDouble(i -> i - lowest).toArray(), smallest);
        expect("allreduce leaves its input alone", Arrays.equals(longsOf(rank), longs), Arrays.toString(longsOf(rank)),
                Arrays.toString(longs));
        // Concatenation is associative but not commutative: the result shows the order of combination.
        byte[] concatenated = world.allreduce(pattern(rank, 55, rank + 3), CommunicatorContract::concat);
        byte[] expected = new byte[0];
        for (int r = 0; r < size; r++) {
            expected = concat(expected, pattern(r, 55, r + 3));
        }
        expectBytes("allreduce(byte[], concatenation) in rank order", expected, concatenated);
    }

    private static long[] longsOf(int rank) {
        return new long[] {rank, -3L * rank, (long) rank * rank, Long.MAX_VALUE - rank};
    }

    private static double[] doublesOf(int rank) {
        // Exactly representable values, so the sum is the same in any order.
        return new double[] {rank + 0.5, -1.25 * rank, Math.pow(2, -rank)};
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private long[] expectedLongs(ReduceOp op) {
        long[] result = new long[4];
        for (int r = 0; r < size; r++) {
            long[] values = longsOf(r);
            for (int i = 0; i < values.length; i++) {
                result[i] = r == 0 ? values[i] : op.apply(result[i], values[i]);
            }
        }
        return result;
    }

    private double[] expectedDoubles(ReduceOp op) {
        double[] result = new double[3];
        for (int r = 0; r < size; r++) {
            double[] values = doublesOf(r);
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

    private void typedMessages() {
        int next = (rank + 1) % size;
        int previous = (rank - 1 + size) % size;
        world.send(intsFor(rank, next), next, 11);
        world.send(longsFor(rank, next), next, 12);
        world.send(doublesFor(rank, next, 5), next, 13);
        world.send(doublesFor(rank, next, LARGE_DOUBLES), next, 14);
        world.send(new int[0], next, 15);
        // Received in another order than sent: each kind has its own tag.
        expectDoubles("large double[] from " + previous, doublesFor(previous, rank, LARGE_DOUBLES),
                world.receiveDoubles(previous, 14));
        int[] ints = world.receiveInts(previous, 11);
        expect("int[] from " + previous, Arrays.equals(intsFor(previous, rank), ints),
                Arrays.toString(intsFor(previous, rank)), Arrays.toString(ints));
        long[] longs = world.receiveLongs(previous, 12);
        expect("long[] from " + previous, Arrays.equals(longsFor(previous, rank), longs),
                Arrays.toString(longsFor(previous, rank)), Arrays.toString(longs));
        expectDoubles("double[] from " + previous, doublesFor(previous, rank, 5), world.receiveDoubles(previous, 13));
        int[] empty = world.receiveInts(previous, 15);
        expect("empty int[] from " + previous, empty.length == 0, "0 ints", empty.length + " ints");
        // A long[] received as double[] is refused and consumed: the next message of the tag comes next.
        world.send(longsFor(rank, next), next, 16);
        world.send(new double[] {rank}, next, 16);
        String refusal = null;
        try {
            world.receiveDoubles(previous, 16);
        } catch (CommunicationException e) {
            refusal = e.getMessage();
        }
        String expectedRefusal = "holds long[] (32 bytes) but was received as double[]";
        expect("long[] received as double[]", refusal != null && refusal.endsWith(expectedRefusal),
                "CommunicationException ending '" + expectedRefusal + "'", String.valueOf(refusal));
        expectDoubles("the message after a refused one", new double[] {previous}, world.receiveDoubles(previous, 16));
    }

    private static int[] intsFor(int from, int to) {
        return new int[] {Integer.MIN_VALUE, -1, 0, from, to, Integer.MAX_VALUE - from, from * 1000 + to};
    }

    private static long[] longsFor(int from, int to) {
        return new long[] {Long.MIN_VALUE + to, -from, Long.MAX_VALUE, ((long) from << 40) | to};
    }

    /** Values whose every bit matters: -0.0, the smallest subnormal, infinities, and fractions per pair. */
    private static double[] doublesFor(int from, int to, int count) {
        double[] values = new double[count];
        double[] special = {-0.0, Double.MIN_VALUE, Double.NEGATIVE_INFINITY, Double.MAX_VALUE};
        for (int i = 0; i < count; i++) {
            values[i] = i < special.length ? special[i] : from + to / 3.0 + i * 1e-3;
        }
        return values;
    }

    private void directBuffers() {
        int next = (rank + 1) % size;
        int previous = (rank - 1 + size) % size;
        byte[] small = pattern(rank, next, 1000 + rank);
        byte[] large = pattern(rank, next, 200_000 + rank);
        ByteBuffer out = ByteBuffer.allocateDirect(7 + large.length);
        out.position(7);
        out.put(large).position(7);
        world.send(out, next, 30);
        out.limit(7 + small.length);
        out.put(small).position(7);
        world.send(out, next, 31);
        expect("send(ByteBuffer) leaves position and limit", out.position() == 7 && out.limit() == 7 + small.length,
                "7 and " + (7 + small.length), out.position() + " and " + out.limit());

        byte[] expectedLarge = pattern(previous, rank, 200_000 + previous);
        ByteBuffer in = ByteBuffer.allocateDirect(5 + expectedLarge.length + 3);
        in.position(5);
        int received = world.receive(in, previous, 30);
        expect("receive(ByteBuffer) length and position", received == expectedLarge.length
                && in.position() == 5 + expectedLarge.length, expectedLarge.length + " bytes, position "
                + (5 + expectedLarge.length), received + " bytes, position " + in.position());
        byte[] landed = new byte[expectedLarge.length];
        in.get(5, landed);
        expectBytes("direct buffer from " + previous, expectedLarge, landed);
        // A ByteBuffer message is a byte message: a byte[] receive takes it.
        expectBytes("ByteBuffer message received as byte[] from " + previous, pattern(previous, rank, 1000 + previous),
                world.receive(previous, 31));
    }

    private void haloExchange() {
        int left = (rank - 1 + size) % size;
        int right = (rank + 1) % size;
        // A periodic 1-D field: this rank owns cells(rank) cells and a ghost cell at each end.
        double[] field = new double[cells(rank) + 2];
        for (int i = 1; i <= cells(rank); i++) {
            field[i] = cellValue(rank, i);
        }
        double[] fromLeft = world.sendrecv(new double[] {field[cells(rank)]}, right, 20, left, 20);
        double[] fromRight = world.sendrecv(new double[] {field[1]}, left, 21, right, 21);
        field[0] = fromLeft[0];
        field[cells(rank) + 1] = fromRight[0];
        expectDoubles("halo from the left neighbour " + left, new double[] {cellValue(left, cells(left))},
                new double[] {field[0]});
        expectDoubles("halo from the right neighbour " + right, new double[] {cellValue(right, 1)},
                new double[] {field[cells(rank) + 1]});
        expectBytes("sendrecv(byte[]) ring shift", pattern(left, rank, 100 + left),
                world.sendrecv(pattern(rank, right, 100 + rank), right, 22, left, 22));
        long[] longs = world.sendrecv(longsFor(rank, right), right, 23, left, 23);
        expect("sendrecv(long[]) ring shift", Arrays.equals(longsFor(left, rank), longs),
                Arrays.toString(longsFor(left, rank)), Arrays.toString(longs));
        int[] ints = world.sendrecv(intsFor(rank, left), left, 24, right, 24);
        expect("sendrecv(int[]) ring shift to the left", Arrays.equals(intsFor(right, rank), ints),
                Arrays.toString(intsFor(right, rank)), Arrays.toString(ints));
    }

    private static int cells(int rank) {
        return 3 + rank % 4;
    }

    private static double cellValue(int rank, int cell) {
        return rank * 1000 + cell + 0.25;
    }

    private void laterReceives() {
        int next = (rank + 1) % size;
        int previous = (rank - 1 + size) % size;
        PendingReceive first = world.receiveLater(previous, 40);
        PendingReceive second = world.receiveLater(previous, 41);
        PendingReceive early = world.receiveLater(previous, 42);
        PendingReceive late = world.receiveLater(previous, 42);
        world.send(pattern(rank, 41, 9), next, 41);
        expect("the later-started receive completes first", arrivesWithin(second), "test() true", "still false after "
                + ARRIVAL_TIMEOUT);
        // The message for 'first' is sent only after the barrier: it cannot be here yet.
        expect("a receive whose message was not sent", !first.test(), "test() false", "true");
        world.barrier();
        world.send(pattern(rank, 40, 8), next, 40);
        for (int i = 0; i < 3; i++) {
            world.send(pattern(rank, 42, 20 + i), next, 42);
        }
        // A blocking receive started after two on the same source and tag gets the third message.
        expectBytes("blocking receive after two started ones", pattern(previous, 42, 22), world.receive(previous, 42));
        expectBytes("second started receive of a tag", pattern(previous, 42, 21), late.await());
        expectBytes("first started receive of a tag", pattern(previous, 42, 20), early.await());
        expectBytes("receive completed after the barrier", pattern(previous, 40, 8), first.await());
        byte[] completed = second.await();
        expectBytes("receive completed first", pattern(previous, 41, 9), completed);
        expect("await() again returns the same array", second.await() == completed, "the same array", "another");
    }

    private static boolean arrivesWithin(PendingReceive receive) {
        long deadline = System.nanoTime() + ARRIVAL_TIMEOUT.toNanos();
        while (!receive.test()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private void splits() {
        int next = (rank + 1) % size;
        int previous = (rank - 1 + size) % size;
        // Three colors (fewer in small worlds); keys with ties, ordered by key, then rank.
        int color = rank % 3;
        IntUnaryOperator keyOf = r -> (size - r) / 2;
        Communicator child = world.split(color, keyOf.applyAsInt(rank));
        int[] members = membersOf(IntStream.range(0, size).toArray(), r -> r % 3 == color, keyOf);
        int childRank = indexOf(members, rank);
        expect("split(" + color + ", " + keyOf.applyAsInt(rank) + ") rank and size",
                child != null && child.size() == members.length && child.rank() == childRank,
                "rank " + childRank + " of " + members.length,
                child == null ? "null" : "rank " + child.rank() + " of " + child.size());
        expectMembers("split(" + color + ") members", members, child);
        long[] sum = child.allreduce(new long[] {rank}, ReduceOp.SUM);
        expect("allreduce in split(" + color + ")", sum[0] == Arrays.stream(members).sum(),
                Long.toString(Arrays.stream(members).sum()), Long.toString(sum[0]));

        // Parent and child traffic with the same tag at once, with collectives of both in between.
        int childNext = (childRank + 1) % members.length;
        int childPrevious = (childRank - 1 + members.length) % members.length;
        world.send(pattern(rank, 77, 3), next, 5);
        child.send(pattern(rank, 88, 4), childNext, 5);
        world.barrier();
        int childRoot = members.length - 1;
        expectBytes("broadcast in split(" + color + ") from its last rank", pattern(members[childRoot], 66, 6),
                child.broadcast(childRank == childRoot ? pattern(rank, 66, 6) : null, childRoot));
        expectBytes("child message with a parent's tag", pattern(members[childPrevious], 88, 4),
                child.receive(childPrevious, 5));
        expectBytes("parent message with a child's tag", pattern(previous, 77, 3), world.receive(previous, 5));

        // A nested split: by the child's rank parity, in reverse order.
        int[] grandchildMembers = membersOf(members, r -> indexOf(members, r) % 2 == childRank % 2,
                r -> -indexOf(members, r));
        Communicator grandchild = child.split(childRank % 2, -childRank);
        expectMembers("nested split members", grandchildMembers, grandchild);
        long[] largest = grandchild.allreduce(new long[] {rank}, ReduceOp.MAX);
        int expectedLargest = Arrays.stream(grandchildMembers).max().orElseThrow();
        expect("allreduce in the nested split", largest[0] == expectedLargest, Integer.toString(expectedLargest),
                Long.toString(largest[0]));

        // The last rank takes no part (when there is more than one).
        boolean optsOut = size > 1 && rank == size - 1;
        Communicator rest = world.split(optsOut ? Communicator.UNDEFINED : 0, 0);
        expect("split with an undefined color", optsOut ? rest == null : rest != null && rest.rank() == rank
                        && rest.size() == (size > 1 ? size - 1 : 1),
                optsOut ? "null" : "rank " + rank, rest == null ? "null" : "rank " + rest.rank() + " of " + rest.size());
        if (rest != null) {
            rest.barrier();
        }
    }

    /** {@code candidates} that pass {@code inGroup}, ordered by {@code key}, then by rank. */
    private static int[] membersOf(int[] candidates, IntPredicate inGroup, IntUnaryOperator key) {
        return Arrays.stream(candidates).filter(inGroup).boxed()
                .sorted(Comparator.<Integer>comparingInt(key::applyAsInt).thenComparingInt(r -> r))
                .mapToInt(Integer::intValue).toArray();
    }

    private static int indexOf(int[] values, int value) {
        return IntStream.range(0, values.length).filter(i -> values[i] == value).findFirst().orElse(-1);
    }

    /** Checks that {@code group}'s ranks are the world ranks {@code expected}, in order. */
    private void expectMembers(String operation, int[] expected, Communicator group) {
        byte[][] all = group.allgather(ByteBuffer.allocate(Integer.BYTES).putInt(rank).array());
        int[] found = Arrays.stream(all).mapToInt(bytes -> ByteBuffer.wrap(bytes).getInt()).toArray();
        expect(operation, Arrays.equals(expected, found), Arrays.toString(expected), Arrays.toString(found));
    }

    /** Bytes that depend on who sent them to whom, and a length that differs per pair. */
    private static byte[] pattern(int from, int to, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (from * 131 + to * 17 + i * 7);
        }
        return bytes;
    }

    /** Compares every bit, so -0.0 and 0.0 differ. */
    private void expectDoubles(String operation, double[] expected, double[] found) {
        boolean same = found != null && expected.length == found.length && IntStream.range(0, expected.length)
                .allMatch(i -> Double.doubleToRawLongBits(expected[i]) == Double.doubleToRawLongBits(found[i]));
        expect(operation, same, expected.length + " doubles (hash " + Arrays.hashCode(expected) + ")",
                found == null ? "null" : found.length + " doubles (hash " + Arrays.hashCode(found) + ")");
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
