package org.quire.runtime.message;

import org.quire.runtime.Communicator;
import org.quire.runtime.ReduceOp;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * A {@link Communicator} built from point-to-point messages, for engines without collectives
 * (Hazelcast queues, in-JVM threads).
 *
 * <p>Every collective goes through rank-rooted star patterns: a gather is N-1 messages to the
 * root, a broadcast N-1 messages from it, an allgather a gather plus a broadcast (2(N-1) messages
 * instead of N(N-1)), a barrier an empty gather plus an empty broadcast. Each collective kind has
 * its own negative tag, so collective traffic never matches user messages (tags {@code >= 0});
 * since all ranks call collectives in the same order and a transport keeps per-pair order, one
 * tag per kind is enough to keep consecutive collectives apart.
 */
public class MessageCommunicator implements Communicator {

    private static final int BARRIER = -1;
    private static final int BROADCAST = -2;
    private static final int GATHER = -3;
    private static final int SCATTER = -4;
    private static final int ALLGATHER = -5;
    private static final int REDUCE = -6;

    private final MessageTransport transport;
    private final MatchingInbox inbox;

    public MessageCommunicator(MessageTransport transport) {
        this.transport = transport;
        this.inbox = new MatchingInbox(transport);
    }

    @Override
    public int rank() {
        return transport.rank();
    }

    @Override
    public int size() {
        return transport.size();
    }

    @Override
    public void barrier() {
        starGather(new byte[0], 0, BARRIER);
        starBroadcast(new byte[0], 0, BARRIER);
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        checkRank(root, "root");
        if (rank() == root) {
            Objects.requireNonNull(data, "data on the broadcast root");
        }
        return starBroadcast(data, root, BROADCAST);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        checkRank(root, "root");
        return starGather(Objects.requireNonNull(data, "data"), root, GATHER);
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        checkRank(root, "root");
        if (rank() != root) {
            return inbox.receive(root, SCATTER);
        }
        if (parts == null || parts.length != size()) {
            throw new IllegalArgumentException("scatter root needs exactly " + size() + " parts, got "
                    + (parts == null ? "null" : parts.length));
        }
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                transport.send(r, SCATTER, parts[r]);
            }
        }
        return parts[root].clone();
    }

    @Override
    public byte[][] allgather(byte[] data) {
        byte[][] gathered = starGather(Objects.requireNonNull(data, "data"), 0, ALLGATHER);
        byte[] packed = starBroadcast(gathered == null ? null : PackedArrays.pack(gathered), 0, ALLGATHER);
        return rank() == 0 ? gathered : PackedArrays.unpack(packed);
    }

    @Override
    public long[] reduce(long[] values, ReduceOp op, int root) {
        return reduceVectors(PackedArrays.longs(values), root, PackedArrays::longs, v -> v.length,
                (result, other) -> {
                    for (int i = 0; i < result.length; i++) {
                        result[i] = op.apply(result[i], other[i]);
                    }
                });
    }

    @Override
    public double[] reduce(double[] values, ReduceOp op, int root) {
        return reduceVectors(PackedArrays.doubles(values), root, PackedArrays::doubles, v -> v.length,
                (result, other) -> {
                    for (int i = 0; i < result.length; i++) {
                        result[i] = op.apply(result[i], other[i]);
                    }
                });
    }

    @Override
    public void send(byte[] data, int destination, int tag) {
        checkRank(destination, "destination");
        checkUserTag(tag);
        transport.send(destination, tag, Objects.requireNonNull(data, "data"));
    }

    @Override
    public byte[] receive(int source, int tag) {
        checkRank(source, "source");
        checkUserTag(tag);
        return inbox.receive(source, tag);
    }

    /** Closes the underlying transport. */
    public void close() {
        transport.close();
    }

    /**
     * Gathers every rank's packed vector at {@code root} and folds them into rank 0's in rank
     * order, so that every run of the same job rounds floating-point sums the same way.
     */
    private <V> V reduceVectors(byte[] packed, int root, Function<byte[], V> unpack, ToIntFunction<V> length,
                                BiConsumer<V, V> foldInto) {
        checkRank(root, "root");
        byte[][] all = starGather(packed, root, REDUCE);
        if (all == null) {
            return null;
        }
        V result = unpack.apply(all[0]);
        for (int r = 1; r < all.length; r++) {
            V other = unpack.apply(all[r]);
            checkSameLength(length.applyAsInt(result), length.applyAsInt(other), r);
            foldInto.accept(result, other);
        }
        return result;
    }

    private byte[][] starGather(byte[] data, int root, int tag) {
        if (rank() != root) {
            transport.send(root, tag, data);
            return null;
        }
        byte[][] all = new byte[size()][];
        all[root] = data.clone();
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                all[r] = inbox.receive(r, tag);
            }
        }
        return all;
    }

    private byte[] starBroadcast(byte[] data, int root, int tag) {
        if (rank() != root) {
            return inbox.receive(root, tag);
        }
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                transport.send(r, tag, data);
            }
        }
        return data.clone();
    }

    private void checkRank(int rank, String role) {
        if (rank < 0 || rank >= size()) {
            throw new IllegalArgumentException(role + " rank " + rank + " is outside the world 0.." + (size() - 1));
        }
    }

    private static void checkUserTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("message tags must be >= 0, got " + tag);
        }
    }

    private static void checkSameLength(int expected, int found, int rank) {
        if (expected != found) {
            throw new IllegalArgumentException("reduce vectors differ in length: root has " + expected
                    + " values, rank " + rank + " has " + found);
        }
    }
}
