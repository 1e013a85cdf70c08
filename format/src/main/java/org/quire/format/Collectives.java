package org.quire.format;

/**
 * The few collective operations a parallel format needs at open and close, over a group of
 * ranks that all call the same operation in the same order.
 *
 * <p>This is the seam SIONlib's generic API exposes (barrier, broadcast, gather, scatter
 * callbacks): the format code is written against it and never against an engine. The runtime's
 * communicator implements it for jobs; tests may implement it with threads.
 *
 * <p>Every method is collective: all ranks of the group must call it, with the same
 * {@code root}. Arrays passed in are not retained; arrays returned are owned by the caller.
 */
public interface Collectives {

    /** This rank's index in the group, {@code 0 <= rank() < size()}. */
    int rank();

    /** Number of ranks in the group, at least 1. */
    int size();

    /** Returns once every rank of the group has entered the barrier. */
    void barrier();

    /**
     * Sends {@code root}'s bytes to every rank.
     *
     * @param data the bytes to send on {@code root}; ignored (may be null) on other ranks
     * @return a copy of {@code root}'s bytes on every rank
     */
    byte[] broadcast(byte[] data, int root);

    /**
     * Collects one byte array from every rank at {@code root}; arrays may differ in length.
     *
     * @return on {@code root}, an array of {@link #size()} entries indexed by rank; null elsewhere
     */
    byte[][] gather(byte[] data, int root);

    /**
     * Hands rank {@code r} the array {@code parts[r]} held by {@code root}.
     *
     * @param parts on {@code root}, exactly {@link #size()} arrays (lengths may differ);
     *              ignored (may be null) on other ranks
     * @return this rank's part
     */
    byte[] scatter(byte[][] parts, int root);
}
