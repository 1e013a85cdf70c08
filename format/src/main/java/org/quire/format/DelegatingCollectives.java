package org.quire.format;

/**
 * Passes every operation to another {@link Collectives}: the base of a decorator that overrides
 * only the operations it watches, counts or (in a test) breaks. The runtime's
 * {@code DelegatingCommunicator} extends it to the whole communicator.
 */
public class DelegatingCollectives implements Collectives {

    private final Collectives delegate;

    public DelegatingCollectives(Collectives delegate) {
        this.delegate = delegate;
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
    public int rank() {
        return delegate.rank();
    }

    @Override
    public void barrier() {
        delegate.barrier();
    }

    @Override
    public int size() {
        return delegate.size();
    }
}
