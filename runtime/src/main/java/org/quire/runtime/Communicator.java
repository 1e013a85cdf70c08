package org.quire.runtime;

import org.quire.format.Collectives;

import java.nio.ByteBuffer;
import java.util.function.BinaryOperator;

/**
 * The ranks of one job, or of a group of them made by {@link #split}, and the operations between
 * them.
 *
 * <p>Collective operations ({@link #barrier()}, {@link #broadcast}, {@link #gather},
 * {@link #scatter}, {@link #allgather}, {@link #reduce}, {@link #allreduce}, {@link #split}) must
 * be called by every rank of the communicator, in the same order, with the same {@code root}.
 * Point-to-point messages ({@link #send}, {@link #receive} and their typed forms) between one pair
 * of ranks with one tag arrive in the order they were sent. User tags are {@code >= 0}; ranks are
 * this communicator's ({@code 0 <= rank < size()}). A rank or tag out of range is an
 * {@link IllegalArgumentException} on the rank that passed it.
 *
 * <p>A message is received as the kind it was sent: {@code byte[]} and {@link ByteBuffer} are one
 * kind, {@code int[]}, {@code long[]} and {@code double[]} one each. Receiving another kind is a
 * {@link CommunicationException} naming both (the message is consumed).
 *
 * <p>A communicator is used by one thread at a time (like MPI's {@code MPI_THREAD_FUNNELED});
 * sub-communicators of one rank count as the same communicator for this rule. Engines do not
 * detect a dead peer: an operation waiting for a rank that died blocks until the launcher
 * ({@code quire run}, {@code srun -K}) stops the job.
 */
public interface Communicator extends Collectives {

    /** The color that puts a rank in no sub-communicator: {@link #split} returns null for it. */
    int UNDEFINED = -1;

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
     * Combines {@code values} element-wise over all ranks with {@code op}; every rank gets the
     * same result (for doubles: the same bits, whatever the engine's order of combination).
     *
     * @param values the same length on every rank; a mismatch throws
     *               {@link IllegalArgumentException} naming the lengths on every rank that can see
     *               it (in-JVM and Hazelcast: all ranks; MPJ: see docs/communicator.md)
     */
    long[] allreduce(long[] values, ReduceOp op);

    /** As {@link #allreduce(long[], ReduceOp)}, for IEEE doubles. */
    double[] allreduce(double[] values, ReduceOp op);

    /**
     * Combines one byte array per rank with a user operation, associative but not necessarily
     * commutative: every rank gets {@code op(...op(op(v0, v1), v2)..., vN-1)}, folded in rank
     * order. {@code op} runs on one rank only, may return arrays of any length and must not keep
     * or change its arguments. When it throws, every rank throws an {@link IllegalArgumentException}
     * carrying its message.
     */
    default byte[] allreduce(byte[] value, BinaryOperator<byte[]> op) {
        return CombineAtRoot.allreduce(this, value, all -> {
            byte[] result = all[0];
            for (int r = 1; r < all.length; r++) {
                result = op.apply(result, all[r]);
            }
            return result;
        });
    }

    /**
     * Splits the ranks into sub-communicators, one per {@code color >= 0}: the ranks that passed
     * the same color, numbered by ascending {@code key} and, among equal keys, by their rank here.
     * Messages and collectives of a sub-communicator never match those of its parent or of any
     * other communicator, whatever their tags. Collective over this communicator.
     *
     * @param color {@code >= 0}, or {@link #UNDEFINED} (any negative value) for no sub-communicator
     * @return the new communicator this rank belongs to, or null for an undefined color
     */
    Communicator split(int color, int key);

    /**
     * Sends {@code data} to {@code destination} with {@code tag >= 0}. Returns at once: the bytes
     * are copied and delivered in the background, so sends never wait for the matching receive
     * (no deadlock when every rank sends before it receives). The array may be reused at once.
     */
    void send(byte[] data, int destination, int tag);

    /** As {@link #send(byte[], int, int)}, for ints; received with {@link #receiveInts}. */
    void send(int[] data, int destination, int tag);

    /** As {@link #send(byte[], int, int)}, for longs; received with {@link #receiveLongs}. */
    void send(long[] data, int destination, int tag);

    /** As {@link #send(byte[], int, int)}, for doubles; received with {@link #receiveDoubles}. */
    void send(double[] data, int destination, int tag);

    /**
     * Sends the bytes between {@code data}'s position and limit, read straight from the buffer
     * (heap or direct); the buffer's position and limit are left as they were.
     */
    void send(ByteBuffer data, int destination, int tag);

    /** Waits for the next message from {@code source} with {@code tag} and returns its bytes. */
    byte[] receive(int source, int tag);

    /** As {@link #receive(int, int)} for a message sent as {@code int[]}. */
    int[] receiveInts(int source, int tag);

    /** As {@link #receive(int, int)} for a message sent as {@code long[]}. */
    long[] receiveLongs(int source, int tag);

    /** As {@link #receive(int, int)} for a message sent as {@code double[]}. */
    double[] receiveDoubles(int source, int tag);

    /**
     * Waits for the next byte message from {@code source} with {@code tag} and puts it into
     * {@code into} at its position, which advances by the message's length.
     *
     * @return the message's length in bytes
     * @throws CommunicationException when the message is longer than {@code into.remaining()}
     *                                (the message is consumed)
     */
    int receive(ByteBuffer into, int source, int tag);

    /**
     * Starts receiving the next byte message from {@code source} with {@code tag} and returns at
     * once. Receives started on one (source, tag) are matched to its messages in the order they
     * were started, and before any receive started after them; receives on different pairs or
     * tags complete in whatever order their messages arrive.
     */
    PendingReceive receiveLater(int source, int tag);

    /**
     * Sends {@code data} to {@code destination} and receives from {@code source}, as one
     * operation that cannot deadlock: the ring or halo exchange of MPI's {@code MPI_Sendrecv}.
     *
     * @return the message received from {@code source} with {@code receiveTag}
     */
    default byte[] sendrecv(byte[] data, int destination, int sendTag, int source, int receiveTag) {
        send(data, destination, sendTag);
        return receive(source, receiveTag);
    }

    /** As {@link #sendrecv(byte[], int, int, int, int)}, for doubles. */
    default double[] sendrecv(double[] data, int destination, int sendTag, int source, int receiveTag) {
        send(data, destination, sendTag);
        return receiveDoubles(source, receiveTag);
    }

    /** As {@link #sendrecv(byte[], int, int, int, int)}, for longs. */
    default long[] sendrecv(long[] data, int destination, int sendTag, int source, int receiveTag) {
        send(data, destination, sendTag);
        return receiveLongs(source, receiveTag);
    }

    /** As {@link #sendrecv(byte[], int, int, int, int)}, for ints. */
    default int[] sendrecv(int[] data, int destination, int sendTag, int source, int receiveTag) {
        send(data, destination, sendTag);
        return receiveInts(source, receiveTag);
    }
}
