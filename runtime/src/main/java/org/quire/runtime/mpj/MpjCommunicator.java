package org.quire.runtime.mpj;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import mpjbuf.Type;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Communicator;
import org.quire.runtime.PendingReceive;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * {@link Communicator} over an MPJ Express intra-communicator, using MPJ's own collectives
 * (barrier, broadcast, gather, scatter, allgather, reduce, allreduce) and typed messages
 * ({@code MPI.INT}, {@code MPI.LONG}, {@code MPI.DOUBLE}). Variable-length operations exchange
 * lengths first, then use the {@code v} variants. (A dissemination barrier and a Bruck allgather
 * over Quire's own point-to-point rounds were measured slower over niodev than MPJ's Barrier and
 * Allreduce: docs/benchmarks.md.)
 *
 * <p>Sends are {@code Isend}s: MPJ's {@code Send} may wait for the matching receive (multicore
 * {@code smpdev} always does), which would deadlock the message patterns the {@link Communicator}
 * contract allows. MPJ packs the data into its own buffer inside {@code Isend}, so the caller's
 * array is free when {@code send} returns. Requests still in flight (of this communicator and of
 * every sub-communicator made from it) are completed at {@link #completeSends()}, which leaving
 * the world calls.
 *
 * <p>{@link #split} agrees on the members with an {@code Allgather} and makes each color's
 * communicator with {@code Create} of that group: MPJ 0.44's own {@code Split} gives ranks with
 * equal keys the same place and knows no undefined color.
 *
 * <p>{@link #receiveLater} keeps its receives in posting order and takes a message in with
 * {@code Iprobe} + {@code Recv} (an {@code Irecv} needs the length in advance); a receive of a
 * (source, tag) first completes the earlier ones of that (source, tag), so messages match
 * receives in the order they were started.
 */
public final class MpjCommunicator implements Communicator {

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final List<Request> sendsInFlight;
    /** Receives started by {@link #receiveLater} and not yet filled, in the order they were started. */
    private final List<MpjPendingReceive> pending = new ArrayList<>();

    public MpjCommunicator(Intracomm comm) {
        this(comm, new ArrayList<>());
    }

    private MpjCommunicator(Intracomm comm, List<Request> sendsInFlight) {
        this.comm = comm;
        this.sendsInFlight = sendsInFlight;
        this.rank = call("Rank", comm::Rank);
        this.size = call("Size", comm::Size);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void barrier() {
        run("Barrier", comm::Barrier);
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        int[] length = {rank == root ? Objects.requireNonNull(data, "data on the broadcast root").length : 0};
        run("Bcast", () -> comm.Bcast(length, 0, 1, MPI.INT, root));
        byte[] buffer = rank == root ? data.clone() : new byte[length[0]];
        run("Bcast", () -> comm.Bcast(buffer, 0, buffer.length, MPI.BYTE, root));
        return buffer;
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        int[] lengths = new int[size];
        run("Gather", () -> comm.Gather(new int[] {data.length}, 0, 1, MPI.INT, lengths, 0, 1, MPI.INT, root));
        int[] offsets = offsets(lengths);
        byte[] all = new byte[rank == root ? total(lengths) : 0];
        run("Gatherv", () -> comm.Gatherv(data, 0, data.length, MPI.BYTE, all, 0, lengths, offsets, MPI.BYTE, root));
        return rank == root ? split(all, lengths, offsets) : null;
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        int[] lengths = new int[size];
        byte[] all = new byte[0];
        if (rank == root) {
            if (parts == null || parts.length != size) {
                throw new IllegalArgumentException("scatter root needs exactly " + size + " parts, got "
                        + (parts == null ? "null" : parts.length));
            }
            for (int r = 0; r < size; r++) {
                lengths[r] = parts[r].length;
            }
            all = concat(parts, total(lengths));
        }
        int[] mine = new int[1];
        run("Scatter", () -> comm.Scatter(lengths, 0, 1, MPI.INT, mine, 0, 1, MPI.INT, root));
        int[] offsets = offsets(lengths);
        byte[] part = new byte[mine[0]];
        byte[] send = all;
        run("Scatterv", () -> comm.Scatterv(send, 0, lengths, offsets, MPI.BYTE, part, 0, part.length, MPI.BYTE, root));
        return part;
    }

    @Override
    public byte[][] allgather(byte[] data) {
        int[] lengths = new int[size];
        run("Allgather", () -> comm.Allgather(new int[] {data.length}, 0, 1, MPI.INT, lengths, 0, 1, MPI.INT));
        int[] offsets = offsets(lengths);
        byte[] all = new byte[total(lengths)];
        run("Allgatherv", () -> comm.Allgatherv(data, 0, data.length, MPI.BYTE, all, 0, lengths, offsets, MPI.BYTE));
        return split(all, lengths, offsets);
    }

    @Override
    public long[] reduce(long[] values, ReduceOp op, int root) {
        long[] result = new long[values.length];
        run("Reduce", () -> comm.Reduce(values, 0, result, 0, values.length, MPI.LONG, mpiOp(op), root));
        return rank == root ? result : null;
    }

    @Override
    public double[] reduce(double[] values, ReduceOp op, int root) {
        double[] result = new double[values.length];
        run("Reduce", () -> comm.Reduce(values, 0, result, 0, values.length, MPI.DOUBLE, mpiOp(op), root));
        return rank == root ? result : null;
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        long[] result = new long[values.length];
        run("Allreduce", () -> comm.Allreduce(values, 0, result, 0, values.length, MPI.LONG, mpiOp(op)));
        return result;
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        double[] result = new double[values.length];
        run("Allreduce", () -> comm.Allreduce(values, 0, result, 0, values.length, MPI.DOUBLE, mpiOp(op)));
        return result;
    }

    @Override
    public Communicator split(int color, int key) {
        boolean member = color >= 0;
        int[] choices = new int[2 * size];
        int[] mine = {member ? color : UNDEFINED, key};
        run("Allgather", () -> comm.Allgather(mine, 0, 2, MPI.INT, choices, 0, 2, MPI.INT));
        if (!member) {
            return null;
        }
        int[] members = IntStream.range(0, size).filter(r -> choices[2 * r] == color).boxed()
                .sorted(Comparator.<Integer>comparingInt(r -> choices[2 * r + 1]).thenComparingInt(r -> r))
                .mapToInt(Integer::intValue).toArray();
        Intracomm child = call("Create", () -> comm.Create(comm.Group().Incl(members)));
        return new MpjCommunicator(child, sendsInFlight);
    }

    @Override
    public void send(byte[] data, int destination, int tag) {
        isend(data, data.length, MPI.BYTE, destination, tag);
    }

    @Override
    public void send(int[] data, int destination, int tag) {
        isend(data, data.length, MPI.INT, destination, tag);
    }

    @Override
    public void send(long[] data, int destination, int tag) {
        isend(data, data.length, MPI.LONG, destination, tag);
    }

    @Override
    public void send(double[] data, int destination, int tag) {
        isend(data, data.length, MPI.DOUBLE, destination, tag);
    }

    /** MPJ 0.44 sends arrays only: the bytes are read into one array, which MPJ then packs. */
    @Override
    public void send(ByteBuffer data, int destination, int tag) {
        byte[] bytes = new byte[data.remaining()];
        data.get(data.position(), bytes);
        send(bytes, destination, tag);
    }

    private void isend(Object data, int count, Datatype type, int destination, int tag) {
        checkRank(destination, "destination");
        checkUserTag(tag);
        sendsInFlight.add(call("Isend", () -> comm.Isend(data, 0, count, type, destination, tag)));
        sendsInFlight.removeIf(request -> call("Test", request::Test) != null);
    }

    /** Waits until every message sent so far has been received; the data then no longer needs to be kept. */
    public void completeSends() {
        Request[] pending = sendsInFlight.toArray(new Request[0]);
        sendsInFlight.clear();
        if (pending.length > 0) {
            run("Waitall", () -> Request.Waitall(pending));
        }
    }

    @Override
    public byte[] receive(int source, int tag) {
        return (byte[]) receiveNext(source, tag, Kind.BYTES);
    }

    @Override
    public int[] receiveInts(int source, int tag) {
        return (int[]) receiveNext(source, tag, Kind.INTS);
    }

    @Override
    public long[] receiveLongs(int source, int tag) {
        return (long[]) receiveNext(source, tag, Kind.LONGS);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return (double[]) receiveNext(source, tag, Kind.DOUBLES);
    }

    /** MPJ 0.44 receives into arrays only: the message is received into one array, then put into {@code into}. */
    @Override
    public int receive(ByteBuffer into, int source, int tag) {
        byte[] bytes = receive(source, tag);
        if (bytes.length > into.remaining()) {
            throw new CommunicationException("rank " + rank + ": the message from rank " + source + " with tag " + tag
                    + " has " + bytes.length + " bytes; the buffer has " + into.remaining() + " left");
        }
        into.put(bytes);
        return bytes.length;
    }

    @Override
    public PendingReceive receiveLater(int source, int tag) {
        checkRank(source, "source");
        checkUserTag(tag);
        MpjPendingReceive started = new MpjPendingReceive(source, tag);
        pending.add(started);
        return started;
    }

    /** A receive of the next byte message from (source, tag), filled by {@link #takeInArrived} or {@link #fill}. */
    private final class MpjPendingReceive implements PendingReceive {
        final int source;
        final int tag;
        byte[] message;
        /** Why its message was refused (another kind), thrown by {@link #await()}. */
        CommunicationException refusal;

        MpjPendingReceive(int source, int tag) {
            this.source = source;
            this.tag = tag;
        }

        @Override
        public boolean test() {
            takeInArrived();
            return !pending.contains(this);
        }

        @Override
        public byte[] await() {
            if (pending.contains(this)) {
                completeEarlierReceives(source, tag, this);
                fill(this);
            }
            if (refusal != null) {
                throw refusal;
            }
            return message;
        }
    }

    /** Fills, in starting order, every started receive whose message has arrived, never overtaking an earlier one of its (source, tag). */
    private void takeInArrived() {
        Set<List<Integer>> stillWaiting = new HashSet<>();
        for (MpjPendingReceive receive : List.copyOf(pending)) {
            List<Integer> key = List.of(receive.source, receive.tag);
            if (!stillWaiting.contains(key) && call("Iprobe", () -> comm.Iprobe(receive.source, receive.tag)) != null) {
                fill(receive);
            } else {
                stillWaiting.add(key);
            }
        }
    }

    /** Waits for and fills every started receive of (source, tag) started before {@code before} (all when null). */
    private void completeEarlierReceives(int source, int tag, MpjPendingReceive before) {
        for (MpjPendingReceive receive : List.copyOf(pending)) {
            if (receive == before) {
                return;
            }
            if (receive.source == source && receive.tag == tag) {
                fill(receive);
            }
        }
    }

    private void fill(MpjPendingReceive receive) {
        pending.remove(receive);
        try {
            receive.message = (byte[]) receiveProbed(receive.source, receive.tag, Kind.BYTES);
        } catch (CommunicationException e) {
            receive.refusal = e;
        }
    }

    private Object receiveNext(int source, int tag, Kind kind) {
        checkRank(source, "source");
        checkUserTag(tag);
        completeEarlierReceives(source, tag, null);
        return receiveProbed(source, tag, kind);
    }

    /**
     * Waits for the next message of (source, tag) and receives it. A message of another kind is
     * received as what it is, so that it is consumed as on the other engines, and refused.
     */
    private Object receiveProbed(int source, int tag, Kind kind) {
        Status probed = call("Probe", () -> comm.Probe(source, tag));
        Kind sent = probed.type == null ? kind : Kind.of(probed.type);
        if (sent == null) {
            throw new CommunicationException("rank " + rank + ": the message from rank " + source + " with tag " + tag
                    + " holds MPJ type " + probed.type.getCode() + ", which Quire does not send; expected " + kind);
        }
        int count = call("Get_count", () -> probed.Get_count(sent.datatype));
        Object buffer = sent.newArray(count);
        run("Recv", () -> comm.Recv(buffer, 0, count, sent.datatype, source, tag));
        if (sent != kind) {
            throw new CommunicationException("rank " + rank + ": the message from rank " + source + " with tag " + tag
                    + " holds " + sent + " (" + (long) count * sent.datatype.getByteSize() + " bytes) but was received as "
                    + kind);
        }
        return buffer;
    }

    /** The kinds of message a rank receives, as MPJ types them. */
    private enum Kind {
        BYTES(MPI.BYTE, Type.BYTE, "byte[]"),
        INTS(MPI.INT, Type.INT, "int[]"),
        LONGS(MPI.LONG, Type.LONG, "long[]"),
        DOUBLES(MPI.DOUBLE, Type.DOUBLE, "double[]");

        final Datatype datatype;
        final Type bufferType;
        final String javaType;

        Kind(Datatype datatype, Type bufferType, String javaType) {
            this.datatype = datatype;
            this.bufferType = bufferType;
            this.javaType = javaType;
        }

        /** The kind MPJ's section type {@code type} holds, or null for one Quire never sends. */
        static Kind of(Type type) {
            for (Kind kind : values()) {
                if (kind.bufferType == type) {
                    return kind;
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return javaType;
        }

        Object newArray(int count) {
            return switch (this) {
                case BYTES -> new byte[count];
                case INTS -> new int[count];
                case LONGS -> new long[count];
                case DOUBLES -> new double[count];
            };
        }
    }

    private static mpi.Op mpiOp(ReduceOp op) {
        return switch (op) {
            case SUM -> MPI.SUM;
            case MIN -> MPI.MIN;
            case MAX -> MPI.MAX;
        };
    }

    private static int[] offsets(int[] lengths) {
        int[] offsets = new int[lengths.length];
        for (int r = 1; r < lengths.length; r++) {
            offsets[r] = offsets[r - 1] + lengths[r - 1];
        }
        return offsets;
    }

    private static int total(int[] lengths) {
        long total = 0;
        for (int length : lengths) {
            total += length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("collective payload of " + total + " bytes exceeds the 2 GiB limit");
        }
        return (int) total;
    }

    private static byte[][] split(byte[] all, int[] lengths, int[] offsets) {
        byte[][] parts = new byte[lengths.length][];
        for (int r = 0; r < lengths.length; r++) {
            parts[r] = Arrays.copyOfRange(all, offsets[r], offsets[r] + lengths[r]);
        }
        return parts;
    }

    private static byte[] concat(byte[][] parts, int total) {
        byte[] all = new byte[total];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    private void checkRank(int rank, String role) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException(role + " rank " + rank + " is outside the communicator 0.." + (size - 1));
        }
    }

    private static void checkUserTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("message tags must be >= 0, got " + tag);
        }
    }

    private static void run(String operation, Runnable call) {
        call(operation, () -> {
            call.run();
            return null;
        });
    }

    private static <T> T call(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (MPIException e) {
            throw new CommunicationException("MPJ Express " + operation + " failed: " + e.getMessage(), e);
        }
    }
}
