package org.quire.runtime;

import java.nio.ByteBuffer;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A communicator whose waiting calls a {@link WaitWatchdog} can see: every receive and every
 * collective records what it is and when it started, for as long as it runs. Sends return at once
 * (see {@link Communicator#send}) and are passed on unwatched, as are rank and size.
 * Sub-communicators made by {@link #split} record into the same slot, as they are used by the same
 * thread.
 */
final class WatchedCommunicator extends DelegatingCommunicator {

    private final WaitWatchdog.Rank slot;
    /** How warnings name this communicator. */
    private final String name;

    WatchedCommunicator(Communicator inner, WaitWatchdog.Rank slot, String name) {
        super(inner);
        this.slot = slot;
        this.name = name;
    }

    @Override
    public void barrier() {
        watched("barrier", null, 0, -1, () -> {
            delegate.barrier();
            return null;
        });
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        return watched("broadcast", "root", root, -1, () -> delegate.broadcast(data, root));
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        return watched("gather", "root", root, -1, () -> delegate.gather(data, root));
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        return watched("scatter", "root", root, -1, () -> delegate.scatter(parts, root));
    }

    @Override
    public byte[][] allgather(byte[] data) {
        return watched("allgather", null, 0, -1, () -> delegate.allgather(data));
    }

    @Override
    public long[] reduce(long[] values, ReduceOp op, int root) {
        return watched("reduce", "root", root, -1, () -> delegate.reduce(values, op, root));
    }

    @Override
    public double[] reduce(double[] values, ReduceOp op, int root) {
        return watched("reduce", "root", root, -1, () -> delegate.reduce(values, op, root));
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        return watched("allreduce", null, 0, -1, () -> delegate.allreduce(values, op));
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        return watched("allreduce", null, 0, -1, () -> delegate.allreduce(values, op));
    }

    @Override
    public byte[] allreduce(byte[] value, BinaryOperator<byte[]> op) {
        return watched("allreduce", null, 0, -1, () -> delegate.allreduce(value, op));
    }

    @Override
    public Communicator split(int color, int key) {
        Communicator part = watched("split", null, 0, -1, () -> delegate.split(color, key));
        return part == null ? null : new WatchedCommunicator(part, slot,
                "a sub-communicator of " + part.size() + " ranks (rank " + part.rank() + " there)");
    }

    @Override
    public byte[] receive(int source, int tag) {
        return watched("receive", "source", source, tag, () -> delegate.receive(source, tag));
    }

    @Override
    public int[] receiveInts(int source, int tag) {
        return watched("receiveInts", "source", source, tag, () -> delegate.receiveInts(source, tag));
    }

    @Override
    public long[] receiveLongs(int source, int tag) {
        return watched("receiveLongs", "source", source, tag, () -> delegate.receiveLongs(source, tag));
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return watched("receiveDoubles", "source", source, tag, () -> delegate.receiveDoubles(source, tag));
    }

    @Override
    public int receive(ByteBuffer into, int source, int tag) {
        return watched("receive", "source", source, tag, () -> delegate.receive(into, source, tag));
    }

    @Override
    public PendingReceive receiveLater(int source, int tag) {
        PendingReceive pending = delegate.receiveLater(source, tag);
        return new PendingReceive() {
            @Override
            public boolean test() {
                return pending.test();
            }

            @Override
            public byte[] await() {
                return watched("await of receiveLater", "source", source, tag, pending::await);
            }
        };
    }

    @Override
    public byte[] sendrecv(byte[] data, int destination, int sendTag, int source, int receiveTag) {
        return watched("sendrecv", "source", source, receiveTag,
                () -> delegate.sendrecv(data, destination, sendTag, source, receiveTag));
    }

    @Override
    public double[] sendrecv(double[] data, int destination, int sendTag, int source, int receiveTag) {
        return watched("sendrecv", "source", source, receiveTag,
                () -> delegate.sendrecv(data, destination, sendTag, source, receiveTag));
    }

    @Override
    public long[] sendrecv(long[] data, int destination, int sendTag, int source, int receiveTag) {
        return watched("sendrecv", "source", source, receiveTag,
                () -> delegate.sendrecv(data, destination, sendTag, source, receiveTag));
    }

    @Override
    public int[] sendrecv(int[] data, int destination, int sendTag, int source, int receiveTag) {
        return watched("sendrecv", "source", source, receiveTag,
                () -> delegate.sendrecv(data, destination, sendTag, source, receiveTag));
    }

    /** Runs {@code call} with the slot showing it; the slot is cleared however it ends. */
    private <T> T watched(String operation, String peerRole, int peer, int tag, Supplier<T> call) {
        slot.current = new WaitWatchdog.Call(operation, peerRole, peer, tag, name, System.nanoTime());
        try {
            return call.get();
        } finally {
            slot.current = null;
        }
    }
}
