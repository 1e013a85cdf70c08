package org.quire.runtime.mpj;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Communicator;
import org.quire.runtime.ReduceOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@link Communicator} over an MPJ Express intra-communicator, using MPJ's own collectives.
 * Variable-length operations exchange lengths first, then use the {@code v} variants.
 *
 * <p>{@link #send} is an {@code Isend} of a copy: MPJ's {@code Send} may wait for the matching
 * receive (multicore {@code smpdev} always does), which would deadlock the message patterns the
 * {@link Communicator} contract allows. Requests still in flight are completed at
 * {@link #completeSends()}, which leaving the world calls.
 */
public final class MpjCommunicator implements Communicator {

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final List<Request> sendsInFlight = new ArrayList<>();

    public MpjCommunicator(Intracomm comm) {
        this.comm = comm;
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
    public void send(byte[] data, int destination, int tag) {
        checkUserTag(tag);
        byte[] copy = data.clone();
        sendsInFlight.add(call("Isend", () -> comm.Isend(copy, 0, copy.length, MPI.BYTE, destination, tag)));
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
        checkUserTag(tag);
        Status probed = call("Probe", () -> comm.Probe(source, tag));
        byte[] buffer = new byte[call("Get_count", () -> probed.Get_count(MPI.BYTE))];
        run("Recv", () -> comm.Recv(buffer, 0, buffer.length, MPI.BYTE, source, tag));
        return buffer;
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
