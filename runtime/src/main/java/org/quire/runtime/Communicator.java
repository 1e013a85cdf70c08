package org.quire.runtime;

import org.quire.format.Collectives;

/**
 * The ranks of one job and the operations between them.
 *
 * <p>Collective operations ({@link #barrier()}, {@link #broadcast}, {@link #gather},
 * {@link #scatter}, {@link #allgather}, {@link #reduce}) must be called by every rank, in the same
 * order, with the same {@code root}. Point-to-point messages ({@link #send}, {@link #receive})
 * between one pair of ranks with one tag arrive in the order they were sent. User tags are
 * {@code >= 0}.
 *
 * <p>A communicator is used by one thread at a time (like MPI's {@code MPI_THREAD_FUNNELED}).
 * Engines do not detect a dead peer: an operation waiting for a rank that died blocks until the
 * launcher ({@code quire run}, {@code srun -K}) stops the job.
 */
public interface Communicator extends Collectives {

    /**
     * Collects one byte array from every rank on every rank.
     *
     * @return on every rank, {@link #size()} arrays indexed by rank
     */
    byte[][] allgather(byte[] data);

    /**
     * Combines {@code values} element-wise over all ranks with {@code op}.
     *
     * @param values the same length on every rank
     * @return on {@code root}, the combined values; null on other ranks
     */
    long[] reduce(long[] values, ReduceOp op, int root);

    /** As {@link #reduce(long[], ReduceOp, int)}, for IEEE doubles. */
    double[] reduce(double[] values, ReduceOp op, int root);

    /**
     * Sends {@code data} to {@code destination} with {@code tag >= 0}. Returns at once: the bytes
     * are copied and delivered in the background, so sends never wait for the matching receive
     * (no deadlock when every rank sends before it receives).
     */
    void send(byte[] data, int destination, int tag);

    /** Waits for the next message from {@code source} with {@code tag} and returns its bytes. */
    byte[] receive(int source, int tag);
}
