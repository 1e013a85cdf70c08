package org.quire.runtime.local;

import org.quire.format.DelegatingCollectives;
import org.quire.runtime.Communicator;
import org.quire.runtime.PendingReceive;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;

/**
 * Passes every operation to another communicator; tests override one operation to plant an engine
 * bug. The {@link org.quire.format.Collectives} part is the format module's delegating double.
 */
class DelegatingCommunicator extends DelegatingCollectives implements Communicator {

    final Communicator delegate;

    DelegatingCommunicator(Communicator delegate) {
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
