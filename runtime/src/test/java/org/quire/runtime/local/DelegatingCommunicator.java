package org.quire.runtime.local;

import org.quire.runtime.Communicator;
import org.quire.runtime.PendingReceive;
import org.quire.runtime.ReduceOp;

import java.nio.ByteBuffer;

/** Passes every operation to another communicator; tests override one operation to plant an engine bug. */
class DelegatingCommunicator implements Communicator {

    final Communicator delegate;

    DelegatingCommunicator(Communicator delegate) {
        this.delegate = delegate;
    }

    @Override
    public int rank() {
        return delegate.rank();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public void barrier() {
        delegate.barrier();
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        return delegate.broadcast(data, root);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        return delegate.gather(data, root);
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        return delegate.scatter(parts, root);
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
