package org.quire.runtime.message;

import org.quire.runtime.CombineAtRoot;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Communicator;
import org.quire.runtime.PendingReceive;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

/**
 * A {@link Communicator} built from point-to-point messages, for engines without collectives
 * (Hazelcast queues, in-JVM threads).
 *
 * <p>Every collective goes through rank-rooted star patterns: a gather is N-1 messages to the
 * root, a broadcast N-1 messages from it, an allgather a gather plus a broadcast (2(N-1) messages
 * instead of N(N-1)), a barrier an empty gather plus an empty broadcast, an allreduce a gather,
 * a fold at rank 0 and a broadcast ({@link CombineAtRoot}). Each collective kind has its own
 * negative tag, so collective traffic never matches user messages (tags {@code >= 0}); since all
 * ranks call collectives in the same order and a transport keeps per-pair order, one tag per kind
 * is enough to keep consecutive collectives apart.
 *
 * <p>A sub-communicator made by {@link #split} shares its rank's transport and inbox with the
 * world and is told apart by a context number in every message's {@link Envelope}. The members of
 * a split agree on the context as the largest "next free context" any of them holds, and each
 * then moves its own past it: two communicators that share a rank therefore never share a
 * context, and those that share none cannot exchange messages anyway.
 */
public class MessageCommunicator implements Communicator {

    private static final int BARRIER = -1;
    private static final int BROADCAST = -2;
    private static final int GATHER = -3;
    private static final int SCATTER = -4;
    private static final int ALLGATHER = -5;
    private static final int REDUCE = -6;
    private static final int WORLD_CONTEXT = 0;

    /** One rank's connection to its world, shared by the world and every sub-communicator made from it. */
    private static final class Endpoint {
        final MessageTransport transport;
        final MatchingInbox inbox;
        int nextFreeContext = WORLD_CONTEXT + 1;

        Endpoint(MessageTransport transport) {
            this.transport = transport;
            this.inbox = new MatchingInbox(transport);
        }
    }

    private final Endpoint endpoint;
    private final int context;
    /** World rank of each rank of this communicator. */
    private final int[] worldRanks;
    private final int rank;

    public MessageCommunicator(MessageTransport transport) {
        this(new Endpoint(transport), WORLD_CONTEXT, IntStream.range(0, transport.size()).toArray(), transport.rank());
    }

    private MessageCommunicator(Endpoint endpoint, int context, int[] worldRanks, int rank) {
        this.endpoint = endpoint;
        this.context = context;
        this.worldRanks = worldRanks;
        this.rank = rank;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return worldRanks.length;
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
            return receiveInternal(root, SCATTER);
        }
        if (parts == null || parts.length != size()) {
            throw new IllegalArgumentException("scatter root needs exactly " + size() + " parts, got "
                    + (parts == null ? "null" : parts.length));
        }
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                sendInternal(r, SCATTER, PayloadKind.BYTES, ByteBuffer.wrap(parts[r]));
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
        checkRank(root, "root");
        byte[][] all = starGather(PackedArrays.longs(values), root, REDUCE);
        return all == null ? null : foldLongs(all, op, "reduce");
    }

    @Override
    public double[] reduce(double[] values, ReduceOp op, int root) {
        checkRank(root, "root");
        byte[][] all = starGather(PackedArrays.doubles(values), root, REDUCE);
        return all == null ? null : foldDoubles(all, op, "reduce");
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        Objects.requireNonNull(op, "op");
        return PackedArrays.longs(CombineAtRoot.allreduce(this, PackedArrays.longs(values),
                all -> PackedArrays.longs(foldLongs(all, op, "allreduce"))));
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        Objects.requireNonNull(op, "op");
        return PackedArrays.doubles(CombineAtRoot.allreduce(this, PackedArrays.doubles(values),
                all -> PackedArrays.doubles(foldDoubles(all, op, "allreduce"))));
    }

    @Override
    public Communicator split(int color, int key) {
        boolean member = color >= 0;
        int[] mine = {member ? color : UNDEFINED, key, endpoint.nextFreeContext};
        byte[][] all = allgather(PackedArrays.ints(mine));
        int[][] choices = Arrays.stream(all).map(PackedArrays::ints).toArray(int[][]::new);
        int newContext = Arrays.stream(choices).mapToInt(choice -> choice[2]).max().orElseThrow();
        endpoint.nextFreeContext = newContext + 1;
        if (!member) {
            return null;
        }
        int[] members = IntStream.range(0, size()).filter(r -> choices[r][0] == color).boxed()
                .sorted(Comparator.<Integer>comparingInt(r -> choices[r][1]).thenComparingInt(r -> r))
                .mapToInt(Integer::intValue).toArray();
        int newRank = IntStream.range(0, members.length).filter(i -> members[i] == rank).findFirst().orElseThrow();
        int[] memberWorldRanks = Arrays.stream(members).map(r -> worldRanks[r]).toArray();
        return new MessageCommunicator(endpoint, newContext, memberWorldRanks, newRank);
    }

    @Override
    public void send(byte[] data, int destination, int tag) {
        sendUser(destination, tag, PayloadKind.BYTES, ByteBuffer.wrap(Objects.requireNonNull(data, "data")));
    }

    @Override
    public void send(int[] data, int destination, int tag) {
        sendUser(destination, tag, PayloadKind.INTS, ByteBuffer.wrap(PackedArrays.ints(data)));
    }

    @Override
    public void send(long[] data, int destination, int tag) {
        sendUser(destination, tag, PayloadKind.LONGS, ByteBuffer.wrap(PackedArrays.longs(data)));
    }

    @Override
    public void send(double[] data, int destination, int tag) {
        sendUser(destination, tag, PayloadKind.DOUBLES, ByteBuffer.wrap(PackedArrays.doubles(data)));
    }

    @Override
    public void send(ByteBuffer data, int destination, int tag) {
        sendUser(destination, tag, PayloadKind.BYTES, Objects.requireNonNull(data, "data"));
    }

    @Override
    public byte[] receive(int source, int tag) {
        return receiveUser(source, tag, PayloadKind.BYTES);
    }

    @Override
    public int[] receiveInts(int source, int tag) {
        return PackedArrays.ints(receiveUser(source, tag, PayloadKind.INTS));
    }

    @Override
    public long[] receiveLongs(int source, int tag) {
        return PackedArrays.longs(receiveUser(source, tag, PayloadKind.LONGS));
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return PackedArrays.doubles(receiveUser(source, tag, PayloadKind.DOUBLES));
    }

    @Override
    public int receive(ByteBuffer into, int source, int tag) {
        byte[] payload = receiveUser(source, tag, PayloadKind.BYTES);
        if (payload.length > into.remaining()) {
            throw new CommunicationException("rank " + rank + ": the message from rank " + source + " with tag " + tag
                    + " has " + payload.length + " bytes; the buffer has " + into.remaining() + " left");
        }
        into.put(payload);
        return payload.length;
    }

    @Override
    public PendingReceive receiveLater(int source, int tag) {
        checkRank(source, "source");
        checkUserTag(tag);
        MatchingInbox.Posted posted = endpoint.inbox.post(worldRanks[source], context, tag);
        return new PendingReceive() {
            @Override
            public boolean test() {
                return endpoint.inbox.test(posted);
            }

            @Override
            public byte[] await() {
                return payloadOf(endpoint.inbox.await(posted), PayloadKind.BYTES, source, tag);
            }
        };
    }

    /** Closes the underlying transport. */
    public void close() {
        endpoint.transport.close();
    }

    private long[] foldLongs(byte[][] all, ReduceOp op, String operation) {
        return fold(all, PackedArrays::longs, v -> v.length, (result, other) -> {
            for (int i = 0; i < result.length; i++) {
                result[i] = op.apply(result[i], other[i]);
            }
        }, operation);
    }

    private double[] foldDoubles(byte[][] all, ReduceOp op, String operation) {
        return fold(all, PackedArrays::doubles, v -> v.length, (result, other) -> {
            for (int i = 0; i < result.length; i++) {
                result[i] = op.apply(result[i], other[i]);
            }
        }, operation);
    }

    /** Folds every rank's vector into rank 0's in rank order, so every run rounds the same way. */
    private static <V> V fold(byte[][] all, Function<byte[], V> unpack, ToIntFunction<V> length, BiConsumer<V, V> foldInto,
                              String operation) {
        V result = unpack.apply(all[0]);
        for (int r = 1; r < all.length; r++) {
            V other = unpack.apply(all[r]);
            if (length.applyAsInt(result) != length.applyAsInt(other)) {
                throw new IllegalArgumentException(operation + " vectors differ in length: rank 0 has "
                        + length.applyAsInt(result) + " values, rank " + r + " has " + length.applyAsInt(other));
            }
            foldInto.accept(result, other);
        }
        return result;
    }

    private byte[][] starGather(byte[] data, int root, int tag) {
        if (rank() != root) {
            sendInternal(root, tag, PayloadKind.BYTES, ByteBuffer.wrap(data));
            return null;
        }
        byte[][] all = new byte[size()][];
        all[root] = data.clone();
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                all[r] = receiveInternal(r, tag);
            }
        }
        return all;
    }

    private byte[] starBroadcast(byte[] data, int root, int tag) {
        if (rank() != root) {
            return receiveInternal(root, tag);
        }
        for (int r = 0; r < size(); r++) {
            if (r != root) {
                sendInternal(r, tag, PayloadKind.BYTES, ByteBuffer.wrap(data));
            }
        }
        return data.clone();
    }

    private void sendUser(int destination, int tag, PayloadKind kind, ByteBuffer payload) {
        checkRank(destination, "destination");
        checkUserTag(tag);
        sendInternal(destination, tag, kind, payload);
    }

    private byte[] receiveUser(int source, int tag, PayloadKind kind) {
        checkRank(source, "source");
        checkUserTag(tag);
        return payloadOf(endpoint.inbox.receive(worldRanks[source], context, tag), kind, source, tag);
    }

    private void sendInternal(int destination, int tag, PayloadKind kind, ByteBuffer payload) {
        endpoint.transport.send(worldRanks[destination], new Envelope(context, tag, kind), payload);
    }

    private byte[] receiveInternal(int source, int tag) {
        return payloadOf(endpoint.inbox.receive(worldRanks[source], context, tag), PayloadKind.BYTES, source, tag);
    }

    private byte[] payloadOf(Message message, PayloadKind expected, int source, int tag) {
        PayloadKind found = message.envelope().kind();
        if (found != expected) {
            throw new CommunicationException("rank " + rank + ": the message from rank " + source + " with tag " + tag
                    + " holds " + found + " (" + message.payload().length + " bytes) but was received as " + expected);
        }
        return message.payload();
    }

    private void checkRank(int rank, String role) {
        if (rank < 0 || rank >= size()) {
            throw new IllegalArgumentException(role + " rank " + rank + " is outside the communicator 0.." + (size() - 1));
        }
    }

    private static void checkUserTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("message tags must be >= 0, got " + tag);
        }
    }
}
