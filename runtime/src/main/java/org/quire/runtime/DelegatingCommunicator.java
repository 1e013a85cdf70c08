package org.quire.runtime;

import org.quire.format.DelegatingCollectives;

import java.nio.ByteBuffer;

/**
 * Passes every operation to another communicator: the base of a decorator that overrides only
 * what it changes ({@link WatchedCommunicator} watches the waiting calls; tests plant engine
 * bugs). The {@link org.quire.format.Collectives} part is {@link DelegatingCollectives}. The
 * interface's default methods ({@code allreduce} of bytes, {@code sendrecv}) are not passed on:
 * they run on this communicator's own operations, so an overridden receive changes them too; a
 * decorator that wants the inner communicator's own versions overrides them.
 */
public class DelegatingCommunicator extends DelegatingCollectives implements Communicator {

    protected final Communicator delegate;

    public DelegatingCommunicator(Communicator delegate) {
        super(delegate);
        this.delegate = delegate;
    }

    @Override
    public byte[][] allgather(byte[] data) {
        return delegate.allgather(data);
    }

    @Override
    public long[] reduce(long[] values, ReduceOp op, int root) {
        return delegate.reduce(values, op, root);
    }

    @Override
    public double[] reduce(double[] values, ReduceOp op, int root) {
        return delegate.reduce(values, op, root);
    }

    @Override
    public long[] allreduce(long[] values, ReduceOp op) {
        return delegate.allreduce(values, op);
    }

    @Override
    public double[] allreduce(double[] values, ReduceOp op) {
        return delegate.allreduce(values, op);
    }

    @Override
    public Communicator split(int color, int key) {
        return delegate.split(color, key);
    }

    @Override
    public void send(byte[] data, int destination, int tag) {
        delegate.send(data, destination, tag);
    }

    @Override
    public void send(int[] data, int destination, int tag) {
        delegate.send(data, destination, tag);
    }

    @Override
    public void send(long[] data, int destination, int tag) {
        delegate.send(data, destination, tag);
    }

    @Override
    public void send(double[] data, int destination, int tag) {
        delegate.send(data, destination, tag);
    }

    @Override
    public void send(ByteBuffer data, int destination, int tag) {
        delegate.send(data, destination, tag);
    }

    @Override
    public byte[] receive(int source, int tag) {
        return delegate.receive(source, tag);
    }

    @Override
    public int[] receiveInts(int source, int tag) {
        return delegate.receiveInts(source, tag);
    }

    @Override
    public long[] receiveLongs(int source, int tag) {
        return delegate.receiveLongs(source, tag);
    }

    @Override
    public double[] receiveDoubles(int source, int tag) {
        return delegate.receiveDoubles(source, tag);
    }

    @Override
    public int receive(ByteBuffer into, int source, int tag) {
        return delegate.receive(into, source, tag);
    }

    @Override
    public PendingReceive receiveLater(int source, int tag) {
        return delegate.receiveLater(source, tag);
    }
}
